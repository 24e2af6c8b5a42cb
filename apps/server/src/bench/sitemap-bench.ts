// `npm run bench:sitemap`: the sitemap at scale (issue 33). Seeds 1,000,000 cars on sale (and
// 100,000 sold or withdrawn) into a fresh PostgreSQL database of its own, serves it with the built
// server and browsing open, and times the sitemap index and the first, middle and last car
// sitemaps (50,000 cars each) against the 2 s target: time to the first byte and to the last,
// bytes, URLs, and the server's peak memory; then a page written in process in batches, as the
// server does, beside one query and one string. Figures, not a test. Settings: BENCH_DATABASE_URL (an
// admin URL; default the local server), BENCH_PG_CARS, BENCH_RUNS, BENCH_PORT; --no-build, --reuse
// (keep the previous run's cars when there are enough).
import { spawnSync } from 'node:child_process';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import { CARS_PER_SITEMAP, carSitemap } from '../modules/seo/sitemap.service.ts';
import { adminUrl, dataArrays, root, seedPostgres, startServer } from './bench-cars.ts';
import { flags, percentile } from './search-bench-setup.ts';

const cars = Number(process.env.BENCH_PG_CARS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const port = Number(process.env.BENCH_PORT ?? 3298);
const TARGET_MS = 2_000;

/** One GET read to its end: time to the first byte, to the last, the bytes and the body. */
async function timed(url: string) {
  const start = performance.now();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const reader = response.body!.getReader();
  let firstByteMs = 0;
  let bytes = 0;
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes === 0) firstByteMs = performance.now() - start;
    bytes += value.byteLength;
    chunks.push(value);
  }
  const totalMs = performance.now() - start;
  return { firstByteMs, totalMs, bytes, body: Buffer.concat(chunks).toString('utf8') };
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;

/**
 * The middle car sitemap written in process as the server writes it (5,000 cars a query, a chunk
 * each) and as one query and one string: time, and the heap it took at most beyond the start.
 */
async function streamedOrWhole(databaseUrl: string, from: string | undefined) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const db = drizzle(pool, { schema }) as unknown as Db;
  console.log(
    `\n${'middle page, in process'.padEnd(30)} ${'time'.padStart(9)} ${'peak heap +'.padStart(12)}`,
  );
  try {
    for (const [name, batch] of [
      ['5,000 a query, streamed', 5_000],
      ['50,000 in one query', CARS_PER_SITEMAP],
    ] as const) {
      const samples: { ms: number; heapMb: number }[] = [];
      for (let i = 0; i <= runs; i++) {
        const base = process.memoryUsage().heapUsed;
        let peak = base;
        const sampler = setInterval(() => {
          peak = Math.max(peak, process.memoryUsage().heapUsed);
        }, 5);
        const start = performance.now();
        let whole = '';
        let written = 0;
        for await (const chunk of carSitemap(db, {
          origin: 'https://cars.example.com',
          from,
          perPage: CARS_PER_SITEMAP,
          batch,
        })) {
          // Streamed: each chunk leaves as it comes; whole: the page is kept until its end.
          if (batch === CARS_PER_SITEMAP) whole += chunk;
          written += chunk.length;
          peak = Math.max(peak, process.memoryUsage().heapUsed);
        }
        clearInterval(sampler);
        if (whole.length > 0) written = whole.length;
        if (i > 0) samples.push({ ms: performance.now() - start, heapMb: (peak - base) / 1e6 });
        if (written === 0) throw new Error('nothing written');
      }
      console.log(
        `${name.padEnd(30)} ${ms(
          percentile(
            samples.map((s) => s.ms),
            50,
          ),
        )} ${`${percentile(
          samples.map((s) => s.heapMb),
          50,
        ).toFixed(0)} MB`.padStart(12)}`,
      );
    }
  } finally {
    await pool.end();
  }
}

async function main() {
  if (!flags.has('--no-build')) {
    const build = spawnSync('npm', ['run', '--silent', 'build:server'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const databaseUrl = await seedPostgres({
    cars,
    data: dataArrays(),
    port,
    reuse: flags.has('--reuse'),
    name: 'carmarket_bench_sitemap',
  });
  console.log(
    `PostgreSQL at ${new URL(adminUrl).host}; ${runs} runs of each, after one to warm up`,
  );
  const server = await startServer(port, { DATABASE_URL: databaseUrl, BROWSE_SIGNED_OUT: 'true' });
  try {
    const index = await timed(`${server.origin}/sitemap.xml`);
    const sitemaps = locs(index.body).slice(1);
    const pick = [
      ['first', sitemaps[0]!],
      ['middle', sitemaps[Math.floor(sitemaps.length / 2)]!],
      ['last full', sitemaps.at(-2)!],
      ['last', sitemaps.at(-1)!],
    ] as const;
    const path = (loc: string) => new URL(loc).pathname + new URL(loc).search;
    const rows: string[] = [];
    const measure = async (name: string, url: string) => {
      await timed(url); // warm-up
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await timed(url));
      const totals = samples.map((s) => s.totalMs);
      const last = samples.at(-1)!;
      const p50 = percentile(totals, 50);
      const worst = Math.max(...totals);
      rows.push(
        `${name.padEnd(22)} ${ms(
          percentile(
            samples.map((s) => s.firstByteMs),
            50,
          ),
        )} ${ms(p50)} ${ms(worst)} ${(last.bytes / 1e3).toFixed(0).padStart(7)} KB ${String(locs(last.body).length).padStart(7)} ${worst <= TARGET_MS ? 'yes' : 'NO'}`,
      );
    };
    await measure(`index (${sitemaps.length} car maps)`, `${server.origin}/sitemap.xml`);
    for (const [name, loc] of pick) await measure(`cars, ${name}`, `${server.origin}${path(loc)}`);
    await measure('public pages', `${server.origin}/sitemap-pages.xml`);
    console.log(
      `\n${'sitemap'.padEnd(22)} ${'1st byte'.padStart(9)} ${'p50'.padStart(9)} ${'worst'.padStart(9)} ${'size'.padStart(10)} ${'URLs'.padStart(7)} under 2 s`,
    );
    for (const row of rows) console.log(row);
    console.log(`\nserver peak RSS ${server.peakRss().toFixed(0)} MB`);
    const middle = new URL(pick[1][1]).searchParams.get('from') ?? undefined;
    await streamedOrWhole(databaseUrl, middle);
  } finally {
    await server.stop();
  }
}

await main();

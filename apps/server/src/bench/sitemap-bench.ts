// `npm run bench:sitemap`: the sitemap at scale (issues 33 and 45). Seeds 1,000,000 cars on sale
// (and 100,000 sold or withdrawn) into a fresh PostgreSQL database of its own, serves it with the
// built server and browsing open, and times the first request for the sitemap index (which builds
// every car sitemap, decision 045), then the index and the first, middle and last car sitemaps
// (50,000 cars each) as served from the build, gzipped and not, against the 2 s target: time to
// the first byte and to the last, bytes, URLs, and the server's peak memory; then one build in
// process: time, and its XML's size plain and gzipped. Figures, not a test. Settings:
// BENCH_DATABASE_URL (an admin URL; default the local server), BENCH_PG_CARS, BENCH_RUNS,
// BENCH_PORT; --no-build, --reuse (keep the previous run's cars when there are enough).
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import { CARS_PER_SITEMAP, carSitemaps } from '../modules/seo/sitemap.service.ts';
import { adminUrl, dataArrays, root, seedPostgres, startServer } from './bench-cars.ts';
import { flags, percentile } from './search-bench-setup.ts';

const cars = Number(process.env.BENCH_PG_CARS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const port = Number(process.env.BENCH_PORT ?? 3298);
const TARGET_MS = 2_000;

/**
 * One GET read to its end: time to the first byte, to the last, the bytes and the body. `gzip`:
 * fetch asks for gzip and unzips (the bytes counted are unzipped); else it asks for none.
 */
async function timed(url: string, { gzip = true } = {}) {
  const start = performance.now();
  const response = await fetch(url, gzip ? {} : { headers: { 'accept-encoding': 'identity' } });
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

/** One build of every car sitemap in process, as the server builds them: time and sizes. */
async function buildInProcess(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const db = drizzle(pool, { schema }) as unknown as Db;
  try {
    const start = performance.now();
    let pages = 0;
    let plainBytes = 0;
    let gzipBytes = 0;
    for await (const page of carSitemaps(db, {
      origin: 'https://cars.example.com',
      perPage: CARS_PER_SITEMAP,
    })) {
      pages += 1;
      plainBytes += Buffer.byteLength(page.xml);
      gzipBytes += gzipSync(page.xml).byteLength;
    }
    console.log(
      `\none build in process: ${pages} car sitemaps in ${ms(performance.now() - start)}, ` +
        `${(plainBytes / 1e6).toFixed(1)} MB of XML, ${(gzipBytes / 1e6).toFixed(1)} MB gzipped`,
    );
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
  const server = await startServer(port, {
    DATABASE_URL: databaseUrl,
    BROWSE_SIGNED_OUT: 'true',
    // The bench reads the sitemaps more often than a crawler may.
    SITEMAP_LIMIT_PER_MINUTE: '100000',
  });
  try {
    // The first request builds every car sitemap (a --reuse run may find them built).
    const index = await timed(`${server.origin}/sitemap.xml`);
    console.log(`first index request (the build, unless stored): ${ms(index.totalMs)}`);
    const sitemaps = locs(index.body).slice(1);
    const pick = [
      ['first', sitemaps[0]!],
      ['middle', sitemaps[Math.floor(sitemaps.length / 2)]!],
      ['last full', sitemaps.at(-2)!],
      ['last', sitemaps.at(-1)!],
    ] as const;
    const path = (loc: string) => new URL(loc).pathname + new URL(loc).search;
    const rows: string[] = [];
    const measure = async (name: string, url: string, options: { gzip?: boolean } = {}) => {
      await timed(url, options); // warm-up
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await timed(url, options));
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
    await measure('cars, middle, no gzip', `${server.origin}${path(pick[1][1])}`, { gzip: false });
    await measure('public pages', `${server.origin}/sitemap-pages.xml`);
    console.log(
      `\n${'sitemap'.padEnd(22)} ${'1st byte'.padStart(9)} ${'p50'.padStart(9)} ${'worst'.padStart(9)} ${'size'.padStart(10)} ${'URLs'.padStart(7)} under 2 s`,
    );
    for (const row of rows) console.log(row);
    console.log(`\nserver peak RSS ${server.peakRss().toFixed(0)} MB`);
    await buildInProcess(databaseUrl);
  } finally {
    await server.stop();
  }
}

await main();

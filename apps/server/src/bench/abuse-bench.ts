// `npm run bench:abuse`: what a flood of each costly answer costs another person (issue 45). The
// built server on PostgreSQL with BENCH_PG_CARS cars on sale (200,000; bench-cars.ts, all of one
// seller's; --reuse keeps an earlier run's), with browsing open signed out so the sitemaps exist.
// Another person opens car pages (GET /api/listings/:id) one after another: idle, then while
// BENCH_ATTACKERS connections send one of these again the moment it answers:
//   sitemap-index   GET /sitemap.xml, signed out
//   car-sitemap     GET each car sitemap the index names, signed out
//   price-guide     GET /api/price-guide by make, model and year without a body type, signed in
//   seller-profile  GET /api/sellers/:id of the seller of every car, signed out
//   vin             GET /api/vin/:vin with VINs never decoded before, from 8 accounts
//   not-found       GET /api/listings/:id of a car that is not there, signed out: the floor, what
//                   any request sent without pause costs, budget or not
// Each flood twice: "heeded", each connection waiting what a 429 or 503's Retry-After says (a
// client that wants its answers, as the audit's scripts did), and "at once", sending again the
// moment any answer came. A heeded flood's car page p95 is to stay within 3x the idle p95
// measured just before it; one at once costs what the not-found floor costs, which no budget in
// the server lowers (a proxy's per-address limits do: docs/operations.md). During the VIN floods
// the person also decodes a VIN of their own every two seconds: how many were refused.
// Figures, not a test. Settings: BENCH_DATABASE_URL, BENCH_PG_CARS, BENCH_SAMPLES (idle car
// pages), BENCH_ATTACK_SECONDS, BENCH_ATTACKERS, BENCH_PORT, BENCH_FLOODS (which of the above),
// BENCH_MODES (`heeded,at-once`); --no-build, --reuse.
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { vinCheckDigit } from '@carmarket/shared';
import { signIn, startServer } from './bench-cars.ts';
import { carPages, percentile, prepareSearchBench, type Timed } from './search-bench-setup.ts';

const cars = Number(process.env.BENCH_PG_CARS ?? 200_000);
const samples = Number(process.env.BENCH_SAMPLES ?? 300);
const attackMs = Number(process.env.BENCH_ATTACK_SECONDS ?? 15) * 1000;
const attackers = Number(process.env.BENCH_ATTACKERS ?? 30);
const port = Number(process.env.BENCH_PORT ?? 3297);
const FLOODS = [
  'sitemap-index',
  'car-sitemap',
  'price-guide',
  'seller-profile',
  'vin',
  'not-found',
] as const;
type Flood = (typeof FLOODS)[number];
const floods = (process.env.BENCH_FLOODS?.split(',') ?? [...FLOODS]) as Flood[];
const MODES = ['heeded', 'at-once'] as const;
type Mode = (typeof MODES)[number];
const modes = (process.env.BENCH_MODES?.split(',') ?? [...MODES]) as Mode[];
const TARGET_RATIO = 3;
const VIN_ACCOUNTS = 8;

/**
 * The flood, in a thread of its own so that its loops do not delay the car pages' clock: loop i
 * sends as `cookies[i % cookies.length]` (an empty one: signed out) the next of `paths` the
 * moment its last answer came; `heed`: after a 429 or 503, once its Retry-After has passed.
 */
const FLOOD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { origin, cookies, paths, attackers, heed } = workerData;
let stop = false;
let next = 0;
const counts = {};
const okMs = [];
parentPort.on('message', () => { stop = true; });
async function loop(i) {
  const cookie = cookies[i % cookies.length];
  while (!stop) {
    const path = paths[next++ % paths.length];
    const start = performance.now();
    try {
      const response = await fetch(origin + path, { headers: cookie ? { cookie } : {} });
      await response.arrayBuffer();
      counts[response.status] = (counts[response.status] || 0) + 1;
      if (response.ok) okMs.push(performance.now() - start);
      if (heed && (response.status === 429 || response.status === 503)) {
        const until = Date.now() + Number(response.headers.get('retry-after') || 1) * 1000;
        while (!stop && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } catch {
      counts.failed = (counts.failed || 0) + 1;
    }
  }
}
Promise.all(Array.from({ length: attackers }, (_, i) => loop(i))).then(() =>
  parentPort.postMessage({ counts, okMs }),
);
`;

interface FloodResult {
  counts: Record<string, number>;
  okMs: number[];
}

function startFlood(origin: string, cookies: string[], paths: string[], heed: boolean) {
  const worker = new Worker(FLOOD_SOURCE, {
    eval: true,
    workerData: { origin, cookies, paths, attackers, heed },
  });
  const done = new Promise<FloodResult>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return async () => {
    worker.postMessage('stop');
    const result = await done;
    await worker.terminate();
    return result;
  };
}

/** A well-formed VIN with a right check digit that no one has decoded: `n` is its serial. */
function freshVin(n: number): string {
  // Honda's WMI and a real pattern, with serials the cache has not seen.
  const draft = `1HGCM82603A${String(n).padStart(6, '0')}`;
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}

/** A new buyer account, signed in: its session cookie. */
async function newAccount(origin: string, n: number): Promise<string> {
  const email = `flood${n}.${Date.now()}@example.com`;
  const response = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ name: `Flood Account ${n}`, email, password: 'correct horse battery' }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

interface Figures {
  flood: Flood;
  mode: Mode;
  idleP50: number;
  idleP95: number;
  floodP50: number;
  floodP95: number;
  failed: number;
  result: FloodResult;
  seconds: number;
  /** The person's own VIN decodes during the VIN flood, by status. */
  ownDecodes?: Record<string, number>;
}

const { databaseUrl: url } = await prepareSearchBench({ cars, port });
const server = await startServer(port, {
  DATABASE_URL: url,
  BROWSE_SIGNED_OUT: 'true',
  // Background work stays out of the measured seconds.
  ALERT_INTERVAL_MS: '3600000',
  PAYMENT_SWEEP_SECONDS: '3600',
  // The VIN flood's accounts are made from this one address.
  SIGN_UP_LIMIT_PER_IP: '100',
  SIGN_UP_LIMIT_PER_IP_PER_DAY: '100',
  LOG_LEVEL: 'fatal',
});
const all: Figures[] = [];
try {
  const { origin } = server;
  const visitor = await signIn(origin, 'buyer@demo.local');
  const pricer = await signIn(origin, 'seller@demo.local');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const ids = (
    await pool.query<{ id: string }>(
      `select id from listing where status = 'available' order by random() limit 200`,
    )
  ).rows.map((row) => row.id);
  const [seller] = (
    await pool.query<{ id: string }>(`select id from "user" where email = 'seller@demo.local'`)
  ).rows;
  const models = (
    await pool.query<{ make: string; model: string }>(
      `select make, model from listing where status = 'available' group by 1, 2 order by count(*) desc limit 20`,
    )
  ).rows;
  await pool.end();

  const carSitemaps = [
    ...(await (await fetch(`${origin}/sitemap.xml`)).text()).matchAll(
      /<loc>[^<]*?(\/sitemap-cars\.xml[^<]*)<\/loc>/g,
    ),
  ].map((match) => match[1]!.replaceAll('&amp;', '&'));
  const priceGuides = models.flatMap(({ make, model }) =>
    [2012, 2016, 2019, 2022].map(
      (year) =>
        `/api/price-guide?make=${encodeURIComponent(make)}&model=${encodeURIComponent(model)}&year=${year}`,
    ),
  );
  const vins = Array.from({ length: 50_000 }, (_, n) => `/api/vin/${freshVin(n)}`);
  const vinAccounts: string[] = [];
  for (let n = 0; n < VIN_ACCOUNTS; n++) vinAccounts.push(await newAccount(origin, n));

  const plans: Record<Flood, { cookies: string[]; paths: string[] }> = {
    'sitemap-index': { cookies: [''], paths: ['/sitemap.xml'] },
    'car-sitemap': { cookies: [''], paths: carSitemaps },
    'price-guide': { cookies: [pricer], paths: priceGuides },
    'seller-profile': { cookies: [''], paths: [`/api/sellers/${seller!.id}`] },
    vin: { cookies: vinAccounts, paths: vins },
    'not-found': { cookies: [''], paths: ['/api/listings/00000000-0000-0000-0000-000000000000'] },
  };

  // Warm: the first pages of a fresh server pay for compiling and caching.
  await carPages(origin, visitor, ids, samples);
  let ownVin = 900_000;
  for (const [flood, mode] of modes.flatMap((m) => floods.map((f) => [f, m] as const))) {
    const idle = await carPages(origin, visitor, ids, samples);
    const started = performance.now();
    const stop = startFlood(origin, plans[flood].cookies, plans[flood].paths, mode === 'heeded');
    // The flood gets going before the clock runs.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const flooded: Timed[] = [];
    const ownDecodes: Record<string, number> = {};
    let lastDecode = 0;
    while (performance.now() - started < attackMs) {
      flooded.push(...(await carPages(origin, visitor, ids, 10)));
      // One of their own every two seconds, well inside their own minute's allowance.
      if (flood === 'vin' && performance.now() - lastDecode > 2000) {
        lastDecode = performance.now();
        const response = await fetch(`${origin}/api/vin/${freshVin(ownVin++)}`, {
          headers: { cookie: visitor },
        });
        await response.arrayBuffer();
        ownDecodes[response.status] = (ownDecodes[response.status] ?? 0) + 1;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const result = await stop();
    const ms = (times: Timed[]) => times.map((t) => t.ms);
    all.push({
      flood,
      mode,
      idleP50: percentile(ms(idle), 50),
      idleP95: percentile(ms(idle), 95),
      floodP50: percentile(ms(flooded), 50),
      floodP95: percentile(ms(flooded), 95),
      failed: [...idle, ...flooded].filter((t) => t.status !== 200).length,
      result,
      seconds,
      ...(flood === 'vin' && { ownDecodes }),
    });
    // The last flood's answers drain before the next idle figure. (The sitemaps' per-address
    // minute is shared by both sitemap floods: the second is refused sooner.)
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
} finally {
  await server.stop();
}

console.log(
  `\nCar page (GET /api/listings/:id) of another person, PostgreSQL with ${cars.toLocaleString('en-US')} cars; ${samples} idle pages before each flood, then ${attackMs / 1000} s of pages during it; ${attackers} connections`,
);
console.log(
  'flood'.padEnd(24) +
    'idle p50'.padStart(10) +
    'idle p95'.padStart(10) +
    'flood p50'.padStart(11) +
    'flood p95'.padStart(11) +
    'ratio p95'.padStart(11) +
    'target'.padStart(8) +
    'failed'.padStart(8),
);
for (const f of all) {
  const ratio = f.floodP95 / f.idleP95;
  console.log(
    `${f.flood}, ${f.mode}`.padEnd(24) +
      f.idleP50.toFixed(1).padStart(10) +
      f.idleP95.toFixed(1).padStart(10) +
      f.floodP50.toFixed(1).padStart(11) +
      f.floodP95.toFixed(1).padStart(11) +
      `${ratio.toFixed(2)}x`.padStart(11) +
      (f.mode === 'at-once' || f.flood === 'not-found'
        ? '-'
        : ratio <= TARGET_RATIO
          ? 'held'
          : 'MISSED'
      ).padStart(8) +
      String(f.failed).padStart(8),
  );
}
console.log('\nThe flood (answers by status; ms of the 200s):');
for (const f of all) {
  const statuses = Object.entries(f.result.counts)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  const own = f.ownDecodes
    ? `; the person's own decodes: ${Object.entries(f.ownDecodes)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ')}`
    : '';
  console.log(
    `  ${`${f.flood}, ${f.mode}`.padEnd(23)} ${statuses} in ${f.seconds.toFixed(0)} s; 200s p50 ${percentile(f.result.okMs, 50).toFixed(0)} ms, p95 ${percentile(f.result.okMs, 95).toFixed(0)} ms${own}`,
  );
}

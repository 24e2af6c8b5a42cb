// `npm run bench:car-views`: what counting views costs the car page (issue 34, decision 027).
// The built server answers `GET /api/listings/:id` (what the car page asks) to many signed-in
// viewers, each request a (viewer, car) pair not asked before, so every answered request is a
// view to count; from BENCH_CONCURRENCY kept-alive connections for BENCH_SECONDS after a warm-up.
// Each figure is a fresh server process on the same database: `off` (COUNT_VIEWS=false, the
// baseline), `on` (counted in the process's memory) and `on+redis` (the first-view check in
// Redis, when BENCH_REDIS_URL or 127.0.0.1:6379 answers), taken in turns BENCH_ROUNDS times,
// each round starting with the next mode; each mode's figure is its median round. The views are
// written every BENCH_VIEW_FLUSH_SECONDS (1), inside the measured seconds; after each counting
// round the views written are read back, and a round that lost or added one fails the bench.
// Embedded PGlite always; PostgreSQL too when BENCH_DATABASE_URL (an admin URL) is set. Target:
// throughput with counting within 10% of the baseline. Figures, not a test. Settings:
// BENCH_SECONDS (6), BENCH_WARMUP_SECONDS (2), BENCH_CONCURRENCY (16), BENCH_ROUNDS (3),
// BENCH_VIEWERS (2000 a round), BENCH_PORT (3294), --db=pglite|postgres, --no-build.
import { spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { serverRoot } from '../config.ts';
import { openDatabase, queryRows, type Db } from '../db/client.ts';
import { createMemoryCounterStore } from '../lib/rate-limit.ts';
import { createViewCounter } from '../modules/stats/car-views.ts';
import type { SessionUser } from '../plugins/auth.ts';
import { redisAnswers } from '../test/redis.ts';
import { root, startServer } from './bench-cars.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const connections = Number(process.env.BENCH_CONCURRENCY ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const viewersPerRound = Number(process.env.BENCH_VIEWERS ?? 2000);
const port = Number(process.env.BENCH_PORT ?? 3294);
const adminUrl = process.env.BENCH_DATABASE_URL;
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const onlyDatabase = process.argv.find((arg) => arg.startsWith('--db='))?.slice('--db='.length);
const TARGET_RATIO = 0.9;
const secret = randomBytes(32).toString('hex');
const origin = `http://127.0.0.1:${port}`;

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', '--silent', 'build:server'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

type Mode = 'off' | 'on' | 'on+redis';
const withRedis = await redisAnswers(redisUrl);
const modes: Mode[] = withRedis ? ['off', 'on', 'on+redis'] : ['off', 'on'];
if (!withRedis) console.log(`Redis does not answer at ${redisUrl}: no on+redis figure.`);

interface Figure {
  mode: Mode;
  rps: number;
  /** The server's CPU time (user + system) a request: steadier than req/s on a shared machine. */
  cpuMs: number;
  p50: number;
  p95: number;
  requests: number;
  non2xx: number;
  /** Views written by the round's server (counting rounds). */
  written: number | null;
}

/** The database a run measures: where it is, and a handle opened while no server runs. */
interface Target {
  name: 'pglite' | 'postgres';
  env: Record<string, string>;
  open: () => ReturnType<typeof openDatabase>;
}

async function postgresTarget(): Promise<Target> {
  const name = 'carmarket_bench_car_views';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-bench-views-'));
  return {
    name: 'postgres',
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir, DATABASE_POOL_SIZE: '10' },
    open: () =>
      openDatabase({
        url: url.toString(),
        pgliteDir: '',
        poolSize: 2,
        migrationsDir: path.join(serverRoot, 'src/db/migrations'),
      }),
  };
}

function pgliteTarget(): Target {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-bench-views-'));
  return {
    name: 'pglite',
    env: { DATA_DIR: dataDir },
    open: () =>
      openDatabase({
        pgliteDir: path.join(dataDir, 'db'),
        poolSize: 1,
        migrationsDir: path.join(serverRoot, 'src/db/migrations'),
      }),
  };
}

/** Viewers with sessions, made straight in the database, and the cars on sale. */
async function prepare(target: Target, viewers: number) {
  const database = await target.open();
  try {
    const made = await queryRows<{ id: string }>(
      database.db,
      sql`insert into "user" (name, email, roles)
          select 'Viewer ' || g, 'viewer' || g || '@bench.local', array['Buyer']
          from generate_series(1, ${viewers}) g
          returning id`,
    );
    const tokens = made.map(() => randomBytes(24).toString('base64url'));
    await queryRows(
      database.db,
      sql`insert into session (token, user_id, expires_at)
          select token, user_id, now() + interval '7 days'
          from unnest(${`{${tokens.join(',')}}`}::text[], ${`{${made.map((v) => v.id).join(',')}}`}::uuid[])
            as s(token, user_id)`,
    );
    await queryRows(database.db, sql`analyze`);
    const cars = await queryRows<{ id: string }>(
      database.db,
      sql`select id from listing where status = 'available' order by id`,
    );
    const sign = (token: string) =>
      `better-auth.session_token=${encodeURIComponent(`${token}.${createHmac('sha256', secret).update(token).digest('base64')}`)}`;
    return { cookies: tokens.map(sign), cars: cars.map((car) => car.id) };
  } finally {
    await database.close();
  }
}

async function viewsWritten(target: Target): Promise<number> {
  const database = await target.open();
  try {
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select coalesce(sum(views), 0)::int as n from car_view_day`,
    );
    return Number(row?.n ?? 0);
  } finally {
    await database.close();
  }
}

/** A process's CPU time so far, in milliseconds (Linux: utime + stime, in clock ticks). */
function cpuMsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One GET over a kept-alive connection: its status and milliseconds. */
function get(agent: http.Agent, pathname: string, cookie: string) {
  const started = process.hrtime.bigint();
  return new Promise<{ status: number; ms: number }>((resolve, reject) => {
    http
      .get(`${origin}${pathname}`, { agent, headers: { cookie } }, (response) => {
        response.resume();
        response.once('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
      })
      .once('error', reject);
  });
}

/**
 * Load on the car page from `connections` kept-alive connections, each sending its next request
 * when its answer is in, for `durationSeconds`. Request i is viewer i mod V's view of car i div V:
 * every (viewer, car) pair once, until they run out.
 */
async function load(cookies: string[], cars: string[], durationSeconds: number, from = 0) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let next = from;
  let notOk = 0;
  const until = Date.now() + durationSeconds * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const i = next++;
        const viewer = cookies[i % cookies.length]!;
        const car = cars[Math.floor(i / cookies.length) % cars.length]!;
        const { status, ms } = await get(agent, `/api/listings/${car}`, viewer);
        if (status !== 200) notOk += 1;
        latencies.push(ms);
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: Math.round(at(0.5) * 10) / 10,
    p95: Math.round(at(0.95) * 10) / 10,
    notOk,
    /** Where the next load carries on, so its pairs are new too. */
    next,
  };
}

async function measure(target: Target): Promise<Figure[]> {
  const base = {
    ...target.env,
    NODE_ENV: 'production',
    PUBLIC_URL: origin,
    BETTER_AUTH_SECRET: secret,
    SEED_DEMO_CARS: 'small',
    // Other background work stays out of the measured seconds. The views' upserts land inside
    // them: every second here (production's default is 10), so a round measures their cost.
    ALERT_INTERVAL_MS: '3600000',
    PAYMENT_SWEEP_SECONDS: '3600',
    VIEW_FLUSH_SECONDS: process.env.BENCH_VIEW_FLUSH_SECONDS ?? '1',
  };
  // A first server migrates and seeds; the measured ones start on a database in service.
  await (await startServer(port, base)).stop();
  const runs = rounds * modes.length;
  const { cookies, cars } = await prepare(target, viewersPerRound * runs);
  console.log(
    `${target.name}: ${cars.length} cars, ${viewersPerRound} viewers a round (${viewersPerRound * cars.length} pairs)`,
  );
  const figures: Figure[] = [];
  let slice = 0;
  let before = 0;
  for (let round = 0; round < rounds; round++) {
    // Each round starts with another mode: a machine growing busier favours none of them.
    const order = [...modes.slice(round % modes.length), ...modes.slice(0, round % modes.length)];
    for (const mode of order) {
      // Each round its own viewers: Redis remembers the last round's views until midnight.
      const mine = cookies.slice(slice * viewersPerRound, (slice + 1) * viewersPerRound);
      slice += 1;
      const server = await startServer(port, {
        ...base,
        COUNT_VIEWS: mode === 'off' ? 'false' : 'true',
        REDIS_URL: mode === 'on+redis' ? redisUrl : '',
      });
      // The warm-up's pairs are the round's first; the measured ones follow, still new.
      const warm = await load(mine, cars, warmupSeconds);
      const cpuBefore = cpuMsOf(server.pid);
      const result = await load(mine, cars, seconds, warm.next);
      const cpuMs = cpuMsOf(server.pid) - cpuBefore;
      await server.stop();
      const total = await viewsWritten(target);
      const figure: Figure = {
        mode,
        rps: result.rps,
        cpuMs: cpuMs / result.requests,
        p50: result.p50,
        p95: result.p95,
        requests: result.requests,
        non2xx: result.notOk + warm.notOk,
        written: mode === 'off' ? null : total - before,
      };
      before = total;
      // Each request of a round is a new (viewer, car) pair: every answered one is a view.
      const views = result.requests + warm.requests - figure.non2xx;
      if (figure.written !== null && figure.written !== views) {
        console.error(`  round ${round + 1} ${mode}: ${views} views, ${figure.written} written`);
        process.exitCode = 1;
      }
      figures.push(figure);
      console.log(
        `  round ${round + 1} ${mode.padEnd(8)} ${figure.rps.toFixed(0)} req/s  ${figure.cpuMs.toFixed(2)} CPU ms a request  p50 ${figure.p50} ms  ` +
          `p95 ${figure.p95} ms  (${figure.requests} + ${warm.requests} warm-up; ` +
          `${figure.non2xx} not 2xx; views written ${figure.written ?? '-'})`,
      );
    }
  }
  return figures;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * The hook alone, in this process: what one view costs the request's process (the memory store's
 * check and the buffer), beside the CPU a whole car page takes above.
 */
async function hookAlone(views: number): Promise<number> {
  const counters = createMemoryCounterStore();
  const counter = createViewCounter({ db: {} as Db, counters, log: console });
  const viewers = Array.from(
    { length: 1000 },
    (_, i) => ({ id: `viewer-${i}`, roles: ['Buyer'] }) as unknown as SessionUser,
  );
  const cars = Array.from({ length: 100 }, (_, i) => ({ id: `car-${i}`, sellerId: 'seller' }));
  const started = process.hrtime.bigint();
  for (let i = 0; i < views; i++) {
    counter.viewed(cars[Math.floor(i / 1000) % 100]!, viewers[i % 1000]!);
    // As requests come: the checks run between them.
    if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
  }
  // The last views' check (after 20 ms) is part of their cost.
  await new Promise((resolve) => setTimeout(resolve, 30));
  const microseconds = Number(process.hrtime.bigint() - started) / 1e3 / views;
  await counters.close();
  return microseconds;
}

const targets: Array<() => Promise<Target>> = [];
if (onlyDatabase !== 'postgres') targets.push(async () => pgliteTarget());
if (adminUrl && onlyDatabase !== 'pglite') targets.push(postgresTarget);
else if (onlyDatabase === 'postgres') throw new Error('--db=postgres needs BENCH_DATABASE_URL');

const table: string[] = [
  '| database | mode | req/s | p50 ms | p95 ms | req/s vs off | CPU ms a request | CPU vs off | views written a round |',
  '|---|---|---|---|---|---|---|---|---|',
];
let met = true;
for (const make of targets) {
  const target = await make();
  const figures = await measure(target);
  const byMode = (mode: Mode) => figures.filter((figure) => figure.mode === mode);
  const baseline = median(byMode('off').map((figure) => figure.rps));
  const baselineCpu = median(byMode('off').map((figure) => figure.cpuMs));
  for (const mode of modes) {
    const mine = byMode(mode);
    const rps = median(mine.map((figure) => figure.rps));
    const ratio = rps / baseline;
    if (mode !== 'off' && ratio < TARGET_RATIO) met = false;
    const written = mine.map((figure) => figure.written ?? '-').join(', ');
    const cpu = median(mine.map((figure) => figure.cpuMs));
    table.push(
      `| ${target.name} | ${mode} | ${rps.toFixed(0)} | ${median(mine.map((f) => f.p50))} | ` +
        `${median(mine.map((f) => f.p95))} | ${ratio.toFixed(2)} | ${cpu.toFixed(2)} | ` +
        `${(cpu / baselineCpu).toFixed(2)} | ${written} |`,
    );
  }
}
console.log(
  `\ncar page, ${connections} connections, ${seconds} s a round after ${warmupSeconds} s warm-up, ` +
    `median of ${rounds} rounds, node ${process.version}, ${os.cpus().length} cores\n`,
);
console.log(table.join('\n'));
console.log(
  `\nthe hook alone (memory store, 100,000 new views): ${(await hookAlone(100_000)).toFixed(2)} µs a view`,
);
console.log(
  `\ntarget: counting keeps >= ${TARGET_RATIO * 100}% of the baseline's req/s: ${met ? 'met' : 'NOT met'}`,
);
process.exit(0);

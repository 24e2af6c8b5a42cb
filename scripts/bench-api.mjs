// `npm run bench:api`: the calls people make most, under load from autocannon, each beside its
// raw twin measured in the same run: the same SQL statements sent with the same driver handle in
// the same server process and `JSON.stringify`ed, with nothing else around them
// (apps/server/src/bench/api-bench-server.ts). The ratio to the twin is what the API costs on
// top of its database work (issue 12's targets); the ratio to `GET /api/health` is printed too.
// Embedded PGlite always; PostgreSQL too when BENCH_DATABASE_URL is set. Figures, not a test.
//
//   BENCH_SECONDS (5), BENCH_CONCURRENCY (32), BENCH_PORT (3298; the twins use the next port),
//   --no-build, --only=<part of a call's name>, --db=pglite|postgres (one database), --profile (a CPU profile of the server while each
//   call is measured, saved in bench-profiles/ with its top frames printed, and one of its twin), --profile=heap (what
//   the server allocates instead, garbage included), BENCH_SHOW_SQL=1 (print each call's recorded statements),
//   BENCH_NODE_ARGS (Node or V8 options for the server, e.g. a GC flag to try), --keep (leave the PostgreSQL
//   database, to EXPLAIN on it), --observability (instead of the twins: each call against two servers
//   at once, one with metrics (METRICS_TOKEN) and the request log on, one without, measured in turns,
//   BENCH_ROUNDS (3) times each, and the ratio of their throughputs; target >= 0.95, decision 040)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import pg from 'pg';
import { serverEnv } from './server-env.mjs';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONCURRENCY ?? 32);
const port = Number(process.env.BENCH_PORT ?? 3298);
const origin = `http://127.0.0.1:${port}`;
const twinOrigin = `http://127.0.0.1:${port + 1}`;
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const profileArg = process.argv.find((arg) => arg === '--profile' || arg.startsWith('--profile='));
const profiling = profileArg !== undefined;
/** `--profile=heap`: where the server allocates (sampled, garbage included) instead of its CPU. */
const heapProfiling = profileArg === '--profile=heap';
const profileKind = heapProfiling ? 'heap' : 'cpu';
const onlyDatabase = process.argv.find((arg) => arg.startsWith('--db='))?.slice('--db='.length);
const keepDatabase = process.argv.includes('--keep');
if (onlyDatabase === 'postgres' && !process.env.BENCH_DATABASE_URL) {
  // Else nothing would be measured, and the summary would read as a pass.
  console.error(
    '--db=postgres needs BENCH_DATABASE_URL (postgres://... of a role that may create databases)',
  );
  process.exit(2);
}
const profileDir = path.join(root, 'bench-profiles');
const observability = process.argv.includes('--observability');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const serverEntry = path.join(root, 'apps/server/dist/api-bench-server.js');

if (!process.argv.includes('--no-build')) {
  const result = spawnSync('npm', ['run', '--silent', 'build:server'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// Bundled like the product's server (apps/server/build.mjs), next to it but never loaded by it.
await build({
  entryPoints: [path.join(root, 'apps/server/src/bench/api-bench-server.ts')],
  outfile: serverEntry,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-dependencies',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@carmarket/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});

/**
 * Node's options for a server on PostgreSQL, as docs/operations.md gives them: a young generation
 * of 2 x 32 MB keeps a busy server's big answers from being promoted and growing the old one
 * (decision 019). The embedded run keeps Node's defaults, as `npm start` does.
 */
const POSTGRES_NODE_OPTIONS = '--max-semi-space-size=32';

/**
 * The measured server, on a database that a first, short-lived process created and seeded: a
 * server in service starts on a database that exists, and the memory that creating one takes
 * (PGlite's initdb, the demo photos) is not what serving costs.
 */
async function startServer(extraEnv, serverPort = port) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-bench-api-'));
  // As `npm start` runs its server (MALLOC_ARENA_MAX=16 in the shell measures glibc's default here).
  const env = {
    ...serverEnv(),
    PORT: String(serverPort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    // Background work stays out of the measured seconds.
    ALERT_INTERVAL_MS: '3600000',
    PAYMENT_SWEEP_SECONDS: '3600',
    // One buyer asks for the category page from 32 connections at once, thousands of times a
    // second: the search budget, which counts it, would answer most with 429 (bench:search-budget
    // measures the budget).
    SEARCH_LIMIT_PER_MINUTE: '100000000',
    SEARCH_CONCURRENCY_PER_PERSON: '100000',
    ...extraEnv,
  };
  // The request log's file is in the server's data directory, as `npm start` keeps its data.
  if (env.BENCH_REQUEST_LOG === 'data-dir')
    env.BENCH_REQUEST_LOG = path.join(dataDir, 'server.log');
  const prepared = spawnSync(process.execPath, [...nodeArgs, serverEntry], {
    cwd: root,
    env: { ...env, BENCH_PREPARE_ONLY: '1' },
    stdio: 'inherit',
  });
  if (prepared.status !== 0) throw new Error(`preparing the database failed (${prepared.status})`);
  const child = spawn(process.execPath, [...nodeArgs, serverEntry], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes('bench-ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the bench server exited (${code})`)));
  });
  return {
    pid: child.pid,
    dataDir,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function rssMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** BENCH_NODE_ARGS: options for the server's `node` (a GC flag to try beside the product's). */
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** `connections` clients sending `request` for `seconds`: throughput and latency. */
async function load(base, request) {
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests: [request],
  });
  const failures = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => code >= 300);
  if (failures.length > 0 && process.env.BENCH_DEBUG)
    console.log('   ', base, JSON.stringify(failures));
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

async function postJson(url, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Each (buyer, car) pair books once: the product and its twin draw from the same shuffled list. */
function bookingPairs(buyers, cars) {
  const pairs = [];
  for (let buyer = 1; buyer < buyers; buyer += 1) {
    for (let car = 0; car < cars; car += 1) pairs.push([buyer, car]);
  }
  for (let i = pairs.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [pairs[i], pairs[j]] = [pairs[j], pairs[i]];
  }
  let next = 0;
  return () => pairs[next++ % pairs.length];
}

const bookingBody = (listingId) =>
  JSON.stringify({
    listingId,
    userPhone: '+1 512 555 0100',
    userLocation: 'Outside the bench',
  });

/** The measured calls: how to make each, and which of them are reads. */
function callsOf(fixtures, siteOrigin = origin) {
  const { demo, bearer, categoryId, cars, buyers } = fixtures;
  const nextPair = bookingPairs(buyers.length, cars.length);
  const get = (name, pathName, headers) => ({
    name,
    read: true,
    record: { name, method: 'GET', path: pathName, headers },
    product: { method: 'GET', path: pathName, headers },
    twin: { method: 'GET', path: `/twin/${encodeURIComponent(name)}` },
  });
  return [
    get('category page (cookie)', `/api/category/${categoryId}`, { cookie: demo.buyer }),
    get('category page (bearer)', `/api/category/${categoryId}`, {
      authorization: `Bearer ${bearer}`,
    }),
    get('car page', `/api/listings/${cars[0]}`, { cookie: demo.buyer }),
    get('My Orders', '/api/booked?email=buyer%40demo.local', { cookie: demo.buyer }),
    // As the page asks: a page of 24 of the demo seller's 90 cars.
    get('My Products (24 of 90)', '/api/my/listings?limit=24', { cookie: demo.seller }),
    // The call without `limit`, all 90 cars (93 KB) at once, as other clients may still ask it:
    // printed, but its p99 is not a target (its twin's own is over 50 ms on two cores).
    {
      ...get('My Products (all 90, no limit)', '/api/my/listings', { cookie: demo.seller }),
      latencyTarget: false,
    },
    get('admin users, page 1 of 10,000', '/api/all/user?role=Buyer&page=1', {
      cookie: demo.admin,
    }),
    {
      name: 'booking (POST /api/category)',
      read: false,
      record: {
        name: 'booking',
        method: 'POST',
        path: '/api/category',
        headers: { cookie: buyers[0] },
        body: JSON.parse(bookingBody(cars[0])),
        buyer: 0,
        car: 0,
      },
      product: {
        method: 'POST',
        path: '/api/category',
        headers: { 'content-type': 'application/json', origin: siteOrigin },
        setupRequest: (request) => {
          const [buyer, car] = nextPair();
          request.headers = { ...request.headers, cookie: buyers[buyer] };
          request.body = bookingBody(cars[car]);
          return request;
        },
      },
      twin: {
        method: 'GET',
        path: '/twin/booking',
        setupRequest: (request) => {
          const [buyer, car] = nextPair();
          request.path = `/twin/booking?buyer=${buyer}&car=${car}`;
          return request;
        },
      },
    },
  ];
}

/** The package (or `our code`, `node:…`, a V8 state) a profile's frame belongs to. */
function placeOf({ url, functionName }) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1];
  if (url.startsWith('node:') || url.startsWith('wasm')) return url.split('/')[0];
  return 'our code';
}

/**
 * Adds `amount` to a frame's place and to its function; `print` shows the largest of each, each
 * amount written by `format` (called then, so it may use a total the adding has just summed).
 */
function tally(format) {
  const byPlace = new Map();
  const byFunction = new Map();
  const add = (callFrame, amount) => {
    const where = placeOf(callFrame);
    byPlace.set(where, (byPlace.get(where) ?? 0) + amount);
    const name = `${callFrame.functionName || '(anonymous)'} (${where}${where === 'our code' ? `:${callFrame.lineNumber + 1}` : ''})`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + amount);
  };
  const top = (map, count) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, amount]) => `${format(amount)} ${name}`)
      .join(', ');
  const print = (label) => {
    console.log(`      ${label}: ${top(byPlace, 8)}`);
    console.log(`      busiest functions: ${top(byFunction, 6)}`);
  };
  return { add, print };
}

/** Where the server's CPU time went: its share by package, and the busiest functions. */
function printTopFrames(file) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const timeOf = new Map();
  profile.samples.forEach((id, index) => {
    timeOf.set(id, (timeOf.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  let busy = 0;
  const cpu = tally((time) => `${((100 * time) / busy).toFixed(0)}%`);
  for (const [id, time] of timeOf) {
    const { callFrame } = nodes.get(id);
    if (placeOf(callFrame) === '(idle)') continue;
    busy += time;
    cpu.add(callFrame, time);
  }
  cpu.print('CPU by place');
}

/**
 * What the server allocated while a call was measured (`--profile=heap`; sampled, garbage
 * included): by package, and the functions that allocated most.
 */
function printTopAllocations(file) {
  const { head } = JSON.parse(fs.readFileSync(file, 'utf8'));
  const megabytes = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  const allocated = tally(megabytes);
  let total = 0;
  const walk = (node) => {
    total += node.selfSize;
    allocated.add(node.callFrame, node.selfSize);
    node.children.forEach(walk);
  };
  walk(head);
  allocated.print(`allocated ${megabytes(total)} (sampled), by place`);
}

const targets = {
  'embedded PGlite': { read: 0.5, write: undefined },
  PostgreSQL: { read: 0.66, write: 0.5 },
};

const fmt = (value, digits = 0) => value.toFixed(digits).padStart(8);

async function run(label, env) {
  const server = await startServer(env);
  const misses = [];
  try {
    const fixtures = await (await fetch(`${twinOrigin}/fixtures`)).json();
    const calls = callsOf(fixtures).filter((call) => !only || call.name.includes(only));
    console.log(
      `\n## ${label}: ${connections} connections, ${seconds} s per figure (autocannon); server's NODE_OPTIONS: ${env.NODE_OPTIONS || '(none)'}, MALLOC_ARENA_MAX: ${serverEnv().MALLOC_ARENA_MAX}`,
    );
    const health = { method: 'GET', path: '/api/health' };
    await load(origin, health); // warm up
    const baseline = await load(origin, health);
    console.log(
      `  ${'GET /api/health (no database)'.padEnd(34)} ${fmt(baseline.rps)} req/s  p50 ${fmt(baseline.p50, 1)}  p99 ${fmt(baseline.p99, 1)} ms`,
    );
    console.log(
      `\n  ${'call'.padEnd(34)} ${'req/s'.padStart(8)} ${'twin'.padStart(8)}  ${'of twin'.padStart(7)} ${'target'.padStart(6)}  ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'twin p99'.padStart(8)}  errors api/twin  of health  SQL        RSS`,
    );
    for (const call of calls) {
      const recorded = await postJson(`${twinOrigin}/record`, call.record);
      if (recorded.status >= 300) {
        throw new Error(`${call.name}: the product answered ${recorded.status} while recording`);
      }
      await load(origin, call.product); // warm up both
      await load(twinOrigin, call.twin);
      await fetch(`${twinOrigin}/settle`);
      if (profiling) await fetch(`${twinOrigin}/profile/start?kind=${profileKind}`);
      const api = await load(origin, call.product);
      if (profiling) {
        fs.mkdirSync(profileDir, { recursive: true });
        const file = path.join(
          profileDir,
          `${label}-${call.name}.${profileKind}profile`.replace(/[^\w.-]+/g, '-'),
        );
        await fetch(`${twinOrigin}/profile/stop?file=${encodeURIComponent(file)}`);
        if (heapProfiling) printTopAllocations(file);
        else printTopFrames(file);
      }
      await fetch(`${twinOrigin}/settle`);
      if (profiling) await fetch(`${twinOrigin}/profile/start?kind=${profileKind}`);
      const twin = await load(twinOrigin, call.twin);
      if (profiling) {
        // The twin's own, to set beside the product's (not printed).
        const file = path.join(
          profileDir,
          `${label}-${call.name}-twin.${profileKind}profile`.replace(/[^\w.-]+/g, '-'),
        );
        await fetch(`${twinOrigin}/profile/stop?file=${encodeURIComponent(file)}`);
      }
      const ratio = api.rps / twin.rps;
      const target = call.read ? targets[label].read : targets[label].write;
      const p99Target =
        label === 'PostgreSQL' && call.read && call.latencyTarget !== false ? 50 : undefined;
      const missed =
        (target !== undefined && ratio < target) ||
        (p99Target !== undefined && api.p99 > p99Target);
      if (missed) misses.push(call.name);
      console.log(
        `  ${call.name.padEnd(34)} ${fmt(api.rps)} ${fmt(twin.rps)}  ${ratio.toFixed(2).padStart(6)}x ${(target === undefined ? '-' : `${target}x`).padStart(6)}  ${fmt(api.p50, 1)} ${fmt(api.p99, 1)} ${fmt(twin.p99, 1)}  ${`${api.errors}/${twin.errors}`.padStart(9)}  ${(api.rps / baseline.rps).toFixed(2).padStart(7)}x  ${String(recorded.statements).padStart(3)} stmts  ${rssMb(server.pid).toFixed(0).padStart(4)} MB${missed ? '  MISSED' : ''}`,
      );
    }
    const rss = rssMb(server.pid);
    const rssTarget = label === 'PostgreSQL' ? 250 : 400;
    console.log(
      `\n  server memory after the run: ${rss.toFixed(0)} MB RSS (target <= ${rssTarget} MB)${rss > rssTarget ? '  MISSED' : ''}`,
    );
    if (rss > rssTarget) misses.push('memory');
    const heap = await (await fetch(`${twinOrigin}/memory`)).json();
    const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
    console.log(
      `  of which JS heap ${mb(heap.heapTotal)} (${mb(heap.heapUsed)} in use), outside it ${mb(heap.external)} (buffers ${mb(heap.arrayBuffers)})`,
    );
    console.log(`  statements per call recorded from the product; twins send the same ones.`);
  } finally {
    await server.stop();
  }
  return misses;
}

/**
 * `--observability`: the same calls against two servers started side by side on copies of the
 * same database, one with metrics and the request log on and one without, each figure taken in
 * turns (off, on, on, off ...) so that a slower minute of the machine falls on both alike.
 */
async function compareObservability(label, env, databaseUrls) {
  const metricsToken = 'bench-metrics-token-0123456789';
  const configurations = [
    {
      name: 'off',
      port,
      env: { ...env, DATABASE_URL: databaseUrls[0], METRICS_TOKEN: '', BENCH_REQUEST_LOG: '' },
    },
    {
      name: 'on',
      port: port + 2,
      env: {
        ...env,
        DATABASE_URL: databaseUrls[1],
        METRICS_TOKEN: metricsToken,
        BENCH_REQUEST_LOG: 'data-dir',
      },
    },
  ];
  const servers = [];
  try {
    for (const configuration of configurations) {
      const server = await startServer(configuration.env, configuration.port);
      const base = `http://127.0.0.1:${configuration.port}`;
      const fixtures = await (
        await fetch(`http://127.0.0.1:${configuration.port + 1}/fixtures`)
      ).json();
      const calls = callsOf(fixtures, base).filter((call) => !only || call.name.includes(only));
      servers.push({ ...configuration, server, base, calls });
    }
    console.log(
      `\n## ${label}: metrics and request log off / on, ${connections} connections, ${seconds} s per figure x ${rounds} rounds each, in turns`,
    );
    console.log(
      `\n  ${'call'.padEnd(34)} ${'off req/s'.padStart(10)} ${'on req/s'.padStart(10)}  ${'on/off'.padStart(6)}  ${'off p99'.padStart(8)} ${'on p99'.padStart(8)}`,
    );
    const names = ['GET /api/health (no database)', ...servers[0].calls.map((call) => call.name)];
    const ratios = [];
    for (const [index, name] of names.entries()) {
      const requestOf = (server) =>
        index === 0 ? { method: 'GET', path: '/api/health' } : server.calls[index - 1].product;
      for (const server of servers) await load(server.base, requestOf(server)); // warm up
      const totals = servers.map(() => ({ requests: 0, p99: 0 }));
      for (let round = 0; round < rounds; round += 1) {
        // Turns alternate which goes first, so a trend of the machine favours neither.
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const which of order) {
          const server = servers[which];
          await fetch(`http://127.0.0.1:${server.port + 1}/settle`);
          const figure = await load(server.base, requestOf(server));
          totals[which].requests += figure.rps;
          totals[which].p99 = Math.max(totals[which].p99, figure.p99);
        }
      }
      const [off, on] = totals.map((total) => total.requests / rounds);
      const ratio = on / off;
      ratios.push(ratio);
      console.log(
        `  ${name.padEnd(34)} ${fmt(off).padStart(10)} ${fmt(on).padStart(10)}  ${ratio.toFixed(3).padStart(6)}  ${fmt(totals[0].p99, 1)} ${fmt(totals[1].p99, 1)}${ratio < 0.95 ? '  MISSED' : ''}`,
      );
    }
    const overall = Math.exp(
      ratios.reduce((sum, ratio) => sum + Math.log(ratio), 0) / ratios.length,
    );
    const on = servers[1];
    const scrape = await fetch(`${on.base}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    const text = await scrape.text();
    const logLines =
      fs.readFileSync(path.join(on.server.dataDir, 'server.log'), 'utf8').split('\n').length - 1;
    console.log(
      `\n  all calls (geometric mean): on/off ${overall.toFixed(3)} (target >= 0.95)${overall < 0.95 ? '  MISSED' : ''}`,
    );
    console.log(
      `  the "on" server: GET /metrics ${scrape.status}, ${text.length} bytes, ${text.split('\n').filter((line) => line.startsWith('http_request_duration_seconds_count')).length} request series; ${logLines} log lines written`,
    );
    return overall < 0.95 ? [`${label}: metrics and request log`] : [];
  } finally {
    for (const { server } of servers) await server.stop();
  }
}

/** A fresh PostgreSQL database per server (`count` of them): their URLs, and a way to drop them. */
async function postgresDatabases(adminUrl, count) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const names = Array.from({ length: count }, (_, i) => `carmarket_bench_${Date.now()}_${i}`);
  for (const name of names) await client.query(`create database "${name}"`);
  const urls = names.map((name) => {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  });
  return {
    urls,
    drop: async () => {
      if (keepDatabase) console.log(`\n(databases kept: ${urls.join(', ')})`);
      else
        for (const name of names)
          await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

if (observability) {
  const missedHere =
    onlyDatabase === 'postgres'
      ? []
      : await compareObservability('embedded PGlite', { NODE_OPTIONS: '' }, ['', '']);
  const adminUrl = onlyDatabase === 'pglite' ? undefined : process.env.BENCH_DATABASE_URL;
  if (adminUrl) {
    const databases = await postgresDatabases(adminUrl, 2);
    try {
      missedHere.push(
        ...(await compareObservability(
          'PostgreSQL',
          { NODE_OPTIONS: POSTGRES_NODE_OPTIONS },
          databases.urls,
        )),
      );
    } finally {
      await databases.drop();
    }
  }
  console.log(
    missedHere.length
      ? `\ntargets missed: ${missedHere.join(', ')}`
      : '\nmetrics and the request log keep >= 0.95 of the throughput',
  );
  process.exit(0);
}

// An empty DATABASE_URL counts as unset: a shell's own never points the embedded run elsewhere.
const missed =
  onlyDatabase === 'postgres'
    ? []
    : await run('embedded PGlite', { DATABASE_URL: '', NODE_OPTIONS: '' });
const adminUrl = onlyDatabase === 'pglite' ? undefined : process.env.BENCH_DATABASE_URL;
if (adminUrl) {
  const name = `carmarket_bench_${Date.now()}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    missed.push(
      ...(await run('PostgreSQL', {
        DATABASE_URL: url.toString(),
        NODE_OPTIONS: POSTGRES_NODE_OPTIONS,
      })),
    );
  } finally {
    if (keepDatabase) console.log(`\n(database kept: ${url})`);
    else await client.query(`drop database if exists "${name}" with (force)`);
    await client.end();
  }
} else {
  console.log('\n(set BENCH_DATABASE_URL=postgres://... to measure PostgreSQL too)');
}
console.log(
  missed.length ? `\ntargets missed: ${missed.join(', ')}` : '\nevery target printed here held',
);

// `npm run bench:search-budget`: what one person searching as fast as they can costs everyone
// else (issue 29). The built server on PostgreSQL with 1,000,000 cars on sale (bench-cars.ts;
// --reuse keeps `bench:search`'s or an earlier run's cars). Another person opens car pages
// (GET /api/listings/:id, what the car page asks), one after another: first on an idle server,
// then while one session keeps BENCH_ATTACKERS heavy searches (facets, text, wide sorts) going
// at once, each sent again the moment its answer comes. Each figure on a fresh server: "before",
// the search budget lifted; "after", its defaults, the attacker waiting what each 429 says;
// "flood", its defaults, the attacker sending again at once; "flood-other", the same flood of
// calls that are not searches (a car that is not there), to tell what any request sent without
// pause costs from what searches cost; "person-only", the person's budget without the process's
// turns (SEARCH_CONCURRENCY_PER_PROCESS lifted).
// The car page's p95 under attack is to stay within 3x its idle figure.
// Figures, not a test. Settings: BENCH_DATABASE_URL, BENCH_PG_CARS, BENCH_SAMPLES (idle car
// pages), BENCH_ATTACK_SECONDS, BENCH_ATTACKERS, BENCH_PORT, BENCH_BUDGETS (which of
// `before,after,flood,flood-other,person-only` to run); --no-build, --reuse.
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { signIn, startServer } from './bench-cars.ts';
import { carPages, percentile, prepareSearchBench, type Timed } from './search-bench-setup.ts';

const cars = Number(process.env.BENCH_PG_CARS ?? 1_000_000);
/** Car pages opened on the idle server; under attack, they are opened for BENCH_ATTACK_SECONDS. */
const samples = Number(process.env.BENCH_SAMPLES ?? 500);
const attackMs = Number(process.env.BENCH_ATTACK_SECONDS ?? 20) * 1000;
const attackers = Number(process.env.BENCH_ATTACKERS ?? 30);
const port = Number(process.env.BENCH_PORT ?? 3295);
const budgets = (process.env.BENCH_BUDGETS ?? 'before,person-only,after,flood,flood-other').split(
  ',',
);
const TARGET_RATIO = 3;

/** The budget as it ships: an empty variable is an unset one, whatever the shell holds. */
const DEFAULT_BUDGET = {
  SEARCH_LIMIT_PER_MINUTE: '',
  SEARCH_CONCURRENCY_PER_PERSON: '',
  SEARCH_CONCURRENCY_PER_PROCESS: '',
  SEARCH_TIMEOUT_MS: '',
};
/** No budget to speak of: what the server did before issue 29. */
const LIFTED_BUDGET = {
  SEARCH_LIMIT_PER_MINUTE: '1000000',
  SEARCH_CONCURRENCY_PER_PERSON: '1000',
  SEARCH_CONCURRENCY_PER_PROCESS: '1000',
  SEARCH_TIMEOUT_MS: '600000',
};

/** Searches that read much of a million cars: facets, text, sorts no index serves with filters. */
function heavySearches(nearId: number): string[] {
  const searches = [
    'facets=1',
    'q=well%20kept&facets=1',
    'q=heated%20seats&sort=price_asc&facets=1',
    'yearMin=2000&yearMax=2026&priceMin=100000&sort=mileage_asc&facets=1',
    `near=${nearId}&radiusKm=500&sort=distance&facets=1`,
    'bodyType=SUV&bodyType=Sedan&fuel=petrol&fuel=diesel&sort=price_desc&facets=1',
    'make=Toyota&make=Ford&make=BMW&make=Audi&sort=year_desc&facets=1',
    'q=toyta%20corola&facets=1',
  ];
  return searches.map((query) => `/api/listings?${query}`);
}

/** Not a search: a car that is not there (404), the cheapest signed-in call there is. */
const NOT_A_SEARCH = ['/api/listings/00000000-0000-0000-0000-000000000000'];

/**
 * The attacker, in a thread of its own so that its loops do not delay the car pages' clock:
 * `attackers` loops, each sending the next search the moment the last one answered.
 */
const ATTACKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { origin, cookie, queries, attackers, honour } = workerData;
let stop = false;
const counts = {};
let lastOkAt = 0;
let okMs = [];
parentPort.on('message', () => { stop = true; });
async function loop(i) {
  let n = i;
  while (!stop) {
    const query = queries[n++ % queries.length];
    const start = performance.now();
    try {
      const response = await fetch(origin + query, { headers: { cookie } });
      await response.arrayBuffer();
      counts[response.status] = (counts[response.status] || 0) + 1;
      if (response.status === 429 && honour) {
        const until = Date.now() + Number(response.headers.get('retry-after') || 1) * 1000;
        while (!stop && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (response.ok) {
        lastOkAt = performance.timeOrigin + performance.now();
        okMs.push(performance.now() - start);
      }
    } catch {
      counts.failed = (counts.failed || 0) + 1;
    }
  }
}
Promise.all(Array.from({ length: attackers }, (_, i) => loop(i))).then(() =>
  parentPort.postMessage({ counts, lastOkAt, okMs }),
);
`;

interface Attack {
  stop(): Promise<{ counts: Record<string, number>; lastOkAt: number; okMs: number[] }>;
}

function attack(origin: string, cookie: string, queries: string[], honour: boolean): Attack {
  const worker = new Worker(ATTACKER_SOURCE, {
    eval: true,
    workerData: { origin, cookie, queries, attackers, honour },
  });
  const done = new Promise<{ counts: Record<string, number>; lastOkAt: number; okMs: number[] }>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    },
  );
  return {
    stop: async () => {
      worker.postMessage('stop');
      const result = await done;
      await worker.terminate();
      return result;
    },
  };
}

interface Figures {
  label: string;
  idleP50: number;
  idleP95: number;
  attackP50: number;
  attackP95: number;
  /** The car pages opened while the attacker's searches still ran (before its minute was spent). */
  whileRunningP95: number;
  whileRunningCount: number;
  /** Car pages under attack that did not answer 200. */
  failed: number;
  attack: Awaited<ReturnType<Attack['stop']>>;
  attackSeconds: number;
}

/**
 * One figure on a server of its own. `honour`: the attacker's loops wait what a 429 says (as a
 * client that wants its results does); without it they send again at once, a flood of requests
 * that costs what any signed-in request costs, search budget or not.
 */
async function measure(
  label: string,
  url: string,
  env: Record<string, string>,
  queries: string[],
  honour: boolean,
) {
  const server = await startServer(port, {
    DATABASE_URL: url,
    // Background work stays out of the measured seconds.
    ALERT_INTERVAL_MS: '3600000',
    PAYMENT_SWEEP_SECONDS: '3600',
    // Pool timeouts of the "before" run would fill the output; the figures say it.
    LOG_LEVEL: 'fatal',
    ...env,
  });
  try {
    const { origin } = server;
    // The attacker and the person opening car pages are two people.
    const attacker = await signIn(origin, 'buyer@demo.local');
    const visitor = await signIn(origin, 'seller@demo.local');
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const ids = (
      await pool.query<{ id: string }>(
        `select id from listing where status = 'available' order by random() limit 200`,
      )
    ).rows.map((row) => row.id);
    await pool.end();
    // Warm: the first pages of a fresh server pay for compiling and caching.
    await carPages(origin, visitor, ids, samples);
    const idle = await carPages(origin, visitor, ids, samples);

    const started = performance.now();
    const running = attack(origin, attacker, queries, honour);
    // The attack gets going (its first searches are under way) before the clock runs.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const attacked: Timed[] = [];
    while (performance.now() - started < attackMs) {
      attacked.push(...(await carPages(origin, visitor, ids, 10)));
    }
    const attackSeconds = (performance.now() - started) / 1000;
    const result = await running.stop();
    const lastOk = result.lastOkAt - performance.timeOrigin;
    const whileRunning = attacked.filter((t) => t.at <= lastOk).map((t) => t.ms);
    const ms = (times: { ms: number }[]) => times.map((t) => t.ms);
    const figures: Figures = {
      label,
      idleP50: percentile(ms(idle), 50),
      idleP95: percentile(ms(idle), 95),
      attackP50: percentile(ms(attacked), 50),
      attackP95: percentile(ms(attacked), 95),
      whileRunningP95: percentile(whileRunning, 95),
      whileRunningCount: whileRunning.length,
      failed: [...idle, ...attacked].filter((t) => t.status !== 200).length,
      attack: result,
      attackSeconds,
    };
    return figures;
  } finally {
    await server.stop();
  }
}

function print(all: Figures[]) {
  console.log(
    `\nCar page (GET /api/listings/:id) of another person, PostgreSQL with ${cars.toLocaleString('en-US')} cars; ${samples} idle pages, then ${attackMs / 1000} s of pages under attack; one session keeping ${attackers} heavy searches going`,
  );
  console.log(
    'budget'.padEnd(30) +
      'idle p50'.padStart(10) +
      'idle p95'.padStart(10) +
      'attack p50'.padStart(12) +
      'attack p95'.padStart(12) +
      'ratio p95'.padStart(11) +
      'target'.padStart(8) +
      'failed'.padStart(8),
  );
  for (const f of all) {
    const ratio = f.attackP95 / f.idleP95;
    console.log(
      f.label.padEnd(30) +
        f.idleP50.toFixed(1).padStart(10) +
        f.idleP95.toFixed(1).padStart(10) +
        f.attackP50.toFixed(1).padStart(12) +
        f.attackP95.toFixed(1).padStart(12) +
        `${ratio.toFixed(2)}x`.padStart(11) +
        (ratio <= TARGET_RATIO ? 'held' : 'MISSED').padStart(8) +
        String(f.failed).padStart(8),
    );
  }
  console.log('\nThe attacker (ms; answers by status):');
  for (const f of all) {
    const statuses = Object.entries(f.attack.counts)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    console.log(
      `  ${f.label.padEnd(28)} ${statuses} in ${f.attackSeconds.toFixed(0)} s; searches answered p50 ${percentile(f.attack.okMs, 50).toFixed(0)} ms, p95 ${percentile(f.attack.okMs, 95).toFixed(0)} ms; car page p95 while its searches still ran (${f.whileRunningCount} pages): ${f.whileRunningP95.toFixed(1)} ms`,
    );
  }
}

const { near, databaseUrl: url } = await prepareSearchBench({ cars, port });
const queries = heavySearches(near.id);
const figures: Figures[] = [];
if (budgets.includes('before')) {
  figures.push(await measure('before (budget lifted)', url, LIFTED_BUDGET, queries, true));
}
if (budgets.includes('after')) {
  figures.push(await measure('after, Retry-After heeded', url, DEFAULT_BUDGET, queries, true));
}
if (budgets.includes('flood')) {
  figures.push(await measure('after, 429s sent at once', url, DEFAULT_BUDGET, queries, false));
}
if (budgets.includes('flood-other')) {
  // The same flood of calls, none a search: what any request sent without pause costs.
  figures.push(await measure('404s sent at once', url, DEFAULT_BUDGET, NOT_A_SEARCH, false));
}
if (budgets.includes('person-only')) {
  // The person's budget without the process's turns (decision 024 before 025).
  const personOnly = { ...DEFAULT_BUDGET, SEARCH_CONCURRENCY_PER_PROCESS: '1000' };
  figures.push(await measure('person budget only, heeded', url, personOnly, queries, true));
}
print(figures);

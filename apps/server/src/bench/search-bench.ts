// `npm run bench:search`: search at scale (decision 009). Seeds 1,000,000 cars on sale (and
// 100,000 sold or withdrawn) into a fresh PostgreSQL database and 100,000 into PGlite, serves each
// with the built server, and times a fixed mix of searches through the API; beside each, the same
// SQL the API ran, straight through `pg` in the same run, so the API's own overhead shows.
// Figures, not a test. Settings: BENCH_DATABASE_URL (an admin URL; default the local server),
// BENCH_PG_CARS, BENCH_PGLITE_CARS, BENCH_RUNS, BENCH_PORT, BENCH_ONLY (only the searches whose
// name has it); --no-build, --no-pglite, --explain, --reuse (keep the previous run's PostgreSQL
// cars when there are enough). API and SQL runs alternate. Also times a car's similar cars.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { SearchQuerySchema, searchParamsOf } from '@carmarket/shared';
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { queryRows, type Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import { findSimilarCars } from '../modules/listings/similar.ts';
import { refreshPriceGuide } from '../modules/price-guide/price-guide.service.ts';
import { searchListings } from '../modules/search/search.service.ts';
import { seedPglite, signIn as signInAt, startServer as startServerOn } from './bench-cars.ts';
import { flags, percentile, prepareSearchBench } from './search-bench-setup.ts';

const pgCars = Number(process.env.BENCH_PG_CARS ?? 1_000_000);
const pgliteCars = Number(process.env.BENCH_PGLITE_CARS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 30);
const port = Number(process.env.BENCH_PORT ?? 3297);
const origin = `http://127.0.0.1:${port}`;

/**
 * One person here times hundreds of searches a minute: the search budget's limits are lifted (its
 * time limit stays, as in service).
 */
const LIFTED_SEARCH_BUDGET = {
  SEARCH_LIMIT_PER_MINUTE: '1000000',
  SEARCH_CONCURRENCY_PER_PERSON: '1000',
};
const startServer = (env: Record<string, string>) =>
  startServerOn(port, { ...LIFTED_SEARCH_BUDGET, ...env });
const signIn = () => signInAt(origin);

// ---------------------------------------------------------------------------------------------
// The mix

interface Search {
  name: string;
  query: string;
  /** Another call than search (`/api<path>`), with the server's own code that runs its SQL. */
  call?: { path: string; run: (db: Db) => Promise<unknown> };
  /** Resolved before timing: the cursor of page 200. */
  prepare?: (
    get: (query: string) => Promise<{ nextCursor: string | null; items?: unknown[] }>,
  ) => Promise<string>;
}

function mix(nearId: number): Search[] {
  const searches: Search[] = [
    { name: 'no filter, newest', query: 'sort=newest' },
    { name: 'make + model', query: 'make=Toyota&model=Corolla' },
    { name: 'price range by price', query: 'priceMin=1000000&priceMax=2000000&sort=price_asc' },
    { name: 'years + mileage', query: 'yearMin=2015&yearMax=2020&mileageMax=80000' },
    { name: 'text', query: 'q=volkswagen%20golf' },
    { name: 'typo text', query: 'q=toyta%20corola' },
    { name: 'within 50 km by distance', query: `near=${nearId}&radiusKm=50&sort=distance` },
    {
      name: 'several filters',
      query:
        'make=BMW&make=Audi&bodyType=SUV&fuel=diesel&transmission=automatic&yearMin=2016&priceMax=4000000',
    },
    { name: 'cheapest first', query: 'sort=price_desc' },
    { name: 'lowest mileage', query: 'sort=mileage_asc&fuel=electric' },
    { name: 'make, newest year', query: 'make=Volkswagen&sort=year_desc' },
    { name: 'best deals first', query: 'sort=deal' },
    { name: 'great deals', query: 'deal=great' },
    { name: 'make, best deals first', query: 'make=Toyota&sort=deal' },
  ];
  const withFacets = searches.map((s) => ({
    name: `${s.name} + facets`,
    query: `${s.query}&facets=1`,
  }));
  const page200: Search = {
    name: 'page 200 (cursors)',
    query: 'sort=newest',
    prepare: async (get) => {
      let cursor = '';
      for (let page = 1; page < 200; page++) {
        const body = await get(`sort=newest${cursor ? `&cursor=${cursor}` : ''}`);
        cursor = body.nextCursor ?? '';
      }
      return `sort=newest&cursor=${cursor}`;
    },
  };
  return [...searches, page200, ...sellerCases(), ...withFacets];
}

/**
 * A seller's cars on sale (their profile, issue 32): the seeded cars are all one seller's, so
 * this is the seller with the most cars there can be. Their id is asked of the API before
 * timing, as each database seeds its own seller.
 */
function sellerCases(): Search[] {
  const withSeller =
    (rest: string): Search['prepare'] =>
    async (get) => {
      const body = (await get('sort=newest&limit=1')) as { items?: { sellerId: string }[] };
      return `seller=${body.items?.[0]?.sellerId ?? ''}${rest}`;
    };
  return [
    { name: 'seller=, newest', query: '', prepare: withSeller('&sort=newest') },
    {
      name: 'seller= + make, by price',
      query: '',
      prepare: withSeller('&make=BMW&sort=price_asc'),
    },
    { name: 'seller= + facets', query: '', prepare: withSeller('&facets=1') },
  ];
}

interface Figure {
  name: string;
  p50: number;
  p95: number;
  bytes: number;
  gzip: number;
  total: number;
  rawP50?: number;
  rawP95?: number;
}

type Statement = { sql: string; params: unknown[] };

/**
 * The SQL a search runs (or `run`, another call's code), recorded by calling the server's own
 * code with a logging Drizzle.
 */
async function recordSql(
  pool: pg.Pool,
  query: string,
  run?: (db: Db) => Promise<unknown>,
): Promise<Statement[]> {
  const recorded: Statement[] = [];
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (sql, params) => recorded.push({ sql, params }) },
  }) as unknown as Db;
  await (run ? run(db) : searchListings(db, SearchQuerySchema.parse(searchParamsOf(query))));
  return recorded;
}

/** Replays a search's SQL straight through `pg`, as the API sends it. */
async function replay(pool: pg.Pool, recorded: Statement[]) {
  // One after another on one connection, as the API sends them (a search holds one connection,
  // in the transaction that limits its time: issue 29).
  const client = await pool.connect();
  try {
    for (const statement of recorded) await client.query(statement.sql, statement.params);
  } finally {
    client.release();
  }
}

/**
 * Times each search through the API and, when `pool` is given, its SQL replayed through `pg`
 * alternately with it, so both see the same machine at the same moment.
 */
async function timeSearches(cookie: string, searches: Search[], pool?: pg.Pool) {
  const get = async (query: string, path = `/listings?${query}`) => {
    const response = await fetch(`${origin}/api${path}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`${query}: ${response.status} ${await response.text()}`);
    return response;
  };
  const figures: Figure[] = [];
  for (const search of searches) {
    const query = search.prepare
      ? await search.prepare(
          async (q) =>
            (await (await get(q)).json()) as { nextCursor: string | null; items?: unknown[] },
        )
      : search.query;
    const recorded = pool ? await recordSql(pool, query, search.call?.run) : [];
    for (let i = 0; i < 3; i++) {
      await (await get(query, search.call?.path)).arrayBuffer();
      if (pool) await replay(pool, recorded);
    }
    const times: number[] = [];
    const rawTimes: number[] = [];
    let body = Buffer.alloc(0);
    for (let i = 0; i < runs; i++) {
      let start = performance.now();
      const response = await get(query, search.call?.path);
      body = Buffer.from(await response.arrayBuffer());
      times.push(performance.now() - start);
      if (pool) {
        start = performance.now();
        await replay(pool, recorded);
        rawTimes.push(performance.now() - start);
      }
    }
    const parsed = JSON.parse(body.toString()) as { total?: number; items?: unknown[] };
    figures.push({
      name: search.name,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      bytes: body.length,
      gzip: gzipSync(body).length,
      total: parsed.total ?? parsed.items?.length ?? 0,
      ...(pool && { rawP50: percentile(rawTimes, 50), rawP95: percentile(rawTimes, 95) }),
    });
    if (pool && flags.has('--explain')) (search as Search & { sql?: Statement[] }).sql = recorded;
  }
  return figures;
}

/** `EXPLAIN (ANALYZE, BUFFERS)` of the slowest searches' SQL. */
async function explainSlowest(pool: pg.Pool, searches: Search[], figures: Figure[]) {
  const slowest = [...figures].sort((a, b) => b.p95 - a.p95).slice(0, 3);
  for (const figure of slowest) {
    const search = searches[figures.indexOf(figure)] as Search & { sql?: Statement[] };
    for (const statement of search.sql ?? []) {
      const plan = await pool.query(
        `explain (analyze, buffers) ${statement.sql}`,
        statement.params,
      );
      console.log(
        `\n-- ${figure.name}\n${plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n')}`,
      );
    }
  }
}

function print(title: string, figures: Figure[], rss: number) {
  console.log(`\n${title}  (server peak RSS ${rss.toFixed(0)} MB, ${runs} runs each)`);
  console.log(
    'search'.padEnd(34) +
      'p50 ms'.padStart(8) +
      'p95 ms'.padStart(8) +
      'SQL p50'.padStart(9) +
      'SQL p95'.padStart(9) +
      'API+ p50'.padStart(10) +
      'KB'.padStart(7) +
      'KB gz'.padStart(7) +
      'total'.padStart(10),
  );
  for (const f of figures) {
    console.log(
      f.name.padEnd(34) +
        f.p50.toFixed(1).padStart(8) +
        f.p95.toFixed(1).padStart(8) +
        (f.rawP50?.toFixed(1) ?? '-').padStart(9) +
        (f.rawP95?.toFixed(1) ?? '-').padStart(9) +
        (f.rawP50 !== undefined ? (f.p50 - f.rawP50).toFixed(1) : '-').padStart(10) +
        (f.bytes / 1024).toFixed(1).padStart(7) +
        (f.gzip / 1024).toFixed(1).padStart(7) +
        String(f.total).padStart(10),
    );
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * Deal ratings for the deal searches: the price guide's refresh (decision 032) over the seeded
 * cars, run here before the server starts, so none runs while searches are timed (the server's
 * own refresh at start finds the fits fresh and skips). Prints its time and the cars per rating.
 */
async function rateCars(db: Db) {
  const refreshed = await refreshPriceGuide(db, { force: true });
  // The refresh rewrites every row of listing_deal, and the first one (or a migration's) writes
  // every car's rating: vacuumed, as autovacuum leaves the tables between refreshes, so counts
  // read listing_onsale_filters_idx without visiting the table.
  await db.execute(sql`vacuum analyze listing_deal`);
  await db.execute(sql`vacuum analyze listing`);
  const ratings = await queryRows<{ rating: string; n: number }>(
    db,
    sql`select rating, count(*)::int as n from listing_deal group by 1 order by min(ratio)`,
  );
  console.log(
    `price guide: ${refreshed.fits} fits, ${refreshed.rated.toLocaleString('en-US')} cars rated in ${(refreshed.ms / 1000).toFixed(1)} s (${ratings.map((row) => `${row.rating} ${row.n}`).join(', ')})`,
  );
}

/**
 * A car page's similar cars (issue 32): a car on sale of a popular model, a sold car, and a sold
 * car of a model no other car has (added here once, sold, so searches do not see it), whose
 * similar cars all come from the walk along the price index for its body type.
 */
async function similarCases(databaseUrl: string): Promise<Search[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const pick = async (where: string) =>
      (
        await pool.query(
          `select id, make, model, body_type as "bodyType", reprice_cents::int as "repriceCents",
            year, currency from listing where ${where} order by id limit 1`,
        )
      ).rows[0] as Parameters<typeof findSimilarCars>[1];
    const lone = `status = 'sold' and make = 'Other' and model = 'Other'`;
    if (!(await pick(lone))) {
      await pool.query(`insert into listing (category_id, seller_id, seller_name, name, condition,
          location, year, reprice_cents, orprice_cents, currency, make, model, body_type, status)
        select category_id, seller_id, seller_name, 'A car of its own', condition, location, 2014,
          1500000, 2000000, 'USD', 'Other', 'Other', 'Pickup', 'sold'
        from listing where status = 'sold' limit 1`);
    }
    const cases = [
      ['a car on sale', `status = 'available' and make = 'Toyota' and model = 'Corolla'`],
      ['a sold car', `status = 'sold' and make <> 'Other'`],
      ['a sold car, body type only', lone],
    ] as const;
    return await Promise.all(
      cases.map(async ([name, where]) => {
        const car = await pick(where);
        return {
          name: `similar cars, ${name}`,
          query: '',
          call: {
            path: `/listings/${car.id}/similar`,
            run: (db: Db) => findSimilarCars(db, car),
          },
        };
      }),
    );
  } finally {
    await pool.end();
  }
}

const { data, near, databaseUrl: pgUrl } = await prepareSearchBench({ cars: pgCars, port });
const searches = [...mix(near.id), ...(await similarCases(pgUrl))].filter(
  (search) => !process.env.BENCH_ONLY || search.name.includes(process.env.BENCH_ONLY),
);
// The price guide's refresh takes minutes at 1M cars: only for a mix with deal searches.
const rating = searches.some((search) => search.query.includes('deal'));
if (rating) {
  const pool = new pg.Pool({ connectionString: pgUrl, max: 1 });
  await rateCars(drizzle(pool, { schema }) as unknown as Db);
  await pool.end();
}
{
  const server = await startServer({ DATABASE_URL: pgUrl });
  const pool = new pg.Pool({ connectionString: pgUrl, max: 10 });
  const figures = await timeSearches(await signIn(), searches, pool);
  const rss = server.peakRss();
  await server.stop();
  if (flags.has('--explain')) await explainSlowest(pool, searches, figures);
  await pool.end();
  print(`PostgreSQL, ${pgCars.toLocaleString('en-US')} cars`, figures, rss);
}

if (!flags.has('--no-pglite')) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-bench-search-'));
  await seedPglite({ dataDir, cars: pgliteCars, data, port });
  const db = await PGlite.create(path.join(dataDir, 'db'), { extensions: { cube, earthdistance } });
  if (rating) await rateCars(drizzlePglite(db, { schema }) as unknown as Db);
  await db.close();
  const server = await startServer({ DATA_DIR: dataDir });
  const figures = await timeSearches(
    await signIn(),
    // The similar cars' cases name cars of the PostgreSQL database.
    searches.filter((search) => !search.call),
  );
  const rss = server.peakRss();
  await server.stop();
  print(`PGlite, ${pgliteCars.toLocaleString('en-US')} cars (API only)`, figures, rss);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

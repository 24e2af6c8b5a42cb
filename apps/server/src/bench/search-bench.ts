// `npm run bench:search`: search at scale (decision 009). Seeds 1,000,000 cars on sale (and
// 100,000 sold or withdrawn) into a fresh PostgreSQL database and 100,000 into PGlite, serves each
// with the built server, and times a fixed mix of searches through the API; beside each, the same
// SQL the API ran, straight through `pg` in the same run, so the API's own overhead shows.
// Figures, not a test. Settings: BENCH_DATABASE_URL (an admin URL; default the local server),
// BENCH_PG_CARS, BENCH_PGLITE_CARS, BENCH_RUNS, BENCH_PORT; --no-build, --no-pglite, --explain,
// --reuse (keep the previous run's PostgreSQL cars when there are enough). API and SQL runs alternate.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import {
  BODY_TYPES,
  COLOURS,
  FUELS,
  MAKES,
  SearchQuerySchema,
  searchParamsOf,
} from '@carmarket/shared';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import { searchPlaces } from '../modules/places/gazetteer.ts';
import { searchListings } from '../modules/search/search.service.ts';

const root = path.resolve(fileURLToPath(new URL('../../../..', import.meta.url)));
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pgCars = Number(process.env.BENCH_PG_CARS ?? 1_000_000);
const pgliteCars = Number(process.env.BENCH_PGLITE_CARS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 30);
const port = Number(process.env.BENCH_PORT ?? 3297);
const origin = `http://127.0.0.1:${port}`;
const flags = new Set(process.argv.slice(2));

// ---------------------------------------------------------------------------------------------
// Data: skewed popularity of makes, models and places, years 1995-2026, log-normal prices,
// mileage that grows with age.

/** A lottery of `size` tickets, each value holding tickets in proportion to its weight. */
function lottery<T>(values: T[], weight: (value: T, index: number) => number, size = 10_000): T[] {
  const weights = values.map(weight);
  const sum = weights.reduce((a, b) => a + b, 0);
  const tickets: T[] = [];
  values.forEach((value, i) => {
    const n = Math.max(1, Math.round((weights[i]! / sum) * size));
    for (let k = 0; k < n; k++) tickets.push(value);
  });
  return tickets;
}

function dataArrays() {
  const pairs = Object.entries(MAKES).flatMap(([make, models], m) =>
    models.map((model, i) => ({ make, model, weight: 1 / (m + 3) / (i + 1.5) })),
  );
  const carTickets = lottery(pairs, (pair) => pair.weight);
  // 600 places: the largest of the United States and the world, weighted by population.
  const seen = new Set<number>();
  const places = 'abcdefghijklmnopqrstuvwxyz'
    .split('')
    .flatMap((letter) => searchPlaces(letter, 40))
    .filter((place) => !seen.has(place.id) && seen.add(place.id))
    .slice(0, 600);
  const placeTickets = lottery(places, (place) => Math.sqrt(place.population));
  return {
    makes: carTickets.map((t) => t.make),
    models: carTickets.map((t) => t.model),
    placeIds: placeTickets.map((p) => p.id),
    placeLats: placeTickets.map((p) => p.lat),
    placeLngs: placeTickets.map((p) => p.lng),
    placeLabels: placeTickets.map((p) => p.label),
    places,
  };
}

/** One INSERT … SELECT from generate_series: the same SQL on PostgreSQL and PGlite. */
const INSERT_SQL = `
insert into listing (category_id, seller_id, seller_name, name, description, condition, location,
  place_id, lat, lng, year, mileage_km, reprice_cents, orprice_cents, currency, make, model,
  body_type, fuel, transmission, colour, status, created_at)
select c.categories[1 + (g % 3)], $2::uuid, 'Bench Motors', r.make || ' ' || r.model,
  'Well kept ' || r.make || ' ' || r.model || ', ' || r.fuel || ', serviced every year. '
    || (array['Heated seats.', 'Tow bar.', 'Panoramic roof.', 'New tyres.', 'One owner.'])[1 + (g % 5)],
  (array['Excellent', 'Good', 'Fair'])[1 + least(2, (2026 - r.year) / 6)],
  r.label, r.place_id, r.lat, r.lng, r.year,
  ((2026 - r.year) * (8000 + random() * 12000))::int,
  r.price, (r.price * 1.4)::bigint, 'USD', r.make, r.model,
  ($9::text[])[1 + floor(random() * array_length($9::text[], 1))::int],
  r.fuel,
  case when random() < 0.75 then 'automatic' else 'manual' end,
  ($10::text[])[1 + floor(random() * array_length($10::text[], 1))::int],
  case when g <= $1::int then 'available' when g % 2 = 0 then 'sold' else 'withdrawn' end,
  now() - random() * interval '365 days'
from generate_series(1, $1::int + $1::int / 10) as g
cross join (select array_agg(id order by position) as categories from category) as c
cross join lateral (
  select t.make, t.model, t.year, p.place_id, p.lat, p.lng, p.label,
    ($11::text[])[1 + floor(random() * array_length($11::text[], 1))::int] as fuel,
    greatest(50000, least(50000000,
      (exp(ln(32000) - 0.1 * (2026 - t.year)
        + 0.45 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())) * 100)::bigint)) as price
  from (select i, 2026 - floor(power(random(), 1.6) * 32)::int as year,
      ($3::text[])[i] as make, ($4::text[])[i] as model
    from (select 1 + floor(random() * array_length($3::text[], 1))::int as i, g as _) as pick) as t
  cross join lateral (select j,
      ($5::int[])[j] as place_id, ($6::float8[])[j] as lat, ($7::float8[])[j] as lng,
      ($8::text[])[j] as label
    from (select 1 + floor(random() * array_length($5::int[], 1))::int as j, g as _) as pick) as p
) as r`;

function insertParams(n: number, sellerId: string, data: ReturnType<typeof dataArrays>) {
  return [
    n,
    sellerId,
    data.makes,
    data.models,
    data.placeIds,
    data.placeLats,
    data.placeLngs,
    data.placeLabels,
    [...BODY_TYPES],
    [...COLOURS],
    [...FUELS],
  ];
}

// ---------------------------------------------------------------------------------------------
// Server

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function startServer(env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${origin}/api/ready`)).ok) break;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(child.pid!));
  }, 100);
  return {
    peakRss: () => peakRss,
    stop: async () => {
      clearInterval(sampler);
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

async function signIn(): Promise<string> {
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: 'buyer@demo.local', password: 'demo-drive-2026' }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

// ---------------------------------------------------------------------------------------------
// The mix

interface Search {
  name: string;
  query: string;
  /** Resolved before timing: the cursor of page 200. */
  prepare?: (get: (query: string) => Promise<{ nextCursor: string | null }>) => Promise<string>;
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
  return [...searches, page200, ...withFacets];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

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

/** The SQL a search runs, recorded by calling the server's own search code with a logging Drizzle. */
async function recordSql(pool: pg.Pool, query: string): Promise<Statement[]> {
  const recorded: Statement[] = [];
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (sql, params) => recorded.push({ sql, params }) },
  }) as unknown as Db;
  await searchListings(db, SearchQuerySchema.parse(searchParamsOf(query)));
  return recorded;
}

/** Replays a search's SQL straight through `pg`, as the API sends it. */
async function replay(pool: pg.Pool, recorded: Statement[]) {
  // The page, the count and the facets go out together, as the API sends them; a statement
  // that depends on another's answer (a sample after the row estimate) follows it.
  const dependent = (statement: Statement) => /tablesample|reltuples/.test(statement.sql);
  await Promise.all(
    recorded
      .filter((statement) => !dependent(statement))
      .map((statement) => pool.query(statement.sql, statement.params)),
  );
  for (const statement of recorded.filter(dependent)) {
    await pool.query(statement.sql, statement.params);
  }
}

/**
 * Times each search through the API and, when `pool` is given, its SQL replayed through `pg`
 * alternately with it, so both see the same machine at the same moment.
 */
async function timeSearches(cookie: string, searches: Search[], pool?: pg.Pool) {
  const get = async (query: string) => {
    const response = await fetch(`${origin}/api/listings?${query}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`${query}: ${response.status} ${await response.text()}`);
    return response;
  };
  const figures: Figure[] = [];
  for (const search of searches) {
    const query = search.prepare
      ? await search.prepare(async (q) => (await (await get(q)).json()) as { nextCursor: string })
      : search.query;
    const recorded = pool ? await recordSql(pool, query) : [];
    for (let i = 0; i < 3; i++) {
      await (await get(query)).arrayBuffer();
      if (pool) await replay(pool, recorded);
    }
    const times: number[] = [];
    const rawTimes: number[] = [];
    let body = Buffer.alloc(0);
    for (let i = 0; i < runs; i++) {
      let start = performance.now();
      const response = await get(query);
      body = Buffer.from(await response.arrayBuffer());
      times.push(performance.now() - start);
      if (pool) {
        start = performance.now();
        await replay(pool, recorded);
        rawTimes.push(performance.now() - start);
      }
    }
    const parsed = JSON.parse(body.toString()) as { total: number };
    figures.push({
      name: search.name,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      bytes: body.length,
      gzip: gzipSync(body).length,
      total: parsed.total,
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

async function seedPostgres(data: ReturnType<typeof dataArrays>): Promise<string> {
  const name = 'carmarket_bench_search';
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (flags.has('--reuse')) {
    // The previous run's database, when it holds as many cars as this run asks for.
    const client = new pg.Client({ connectionString: url.toString() });
    const onSale = await client
      .connect()
      .then(() => client.query(`select count(*)::int as n from listing where status = 'available'`))
      .then((result) => (result.rows[0] as { n: number }).n)
      .catch(() => 0)
      .finally(() => client.end().catch(() => {}));
    if (onSale >= pgCars) {
      console.log(`PostgreSQL: reusing ${onSale.toLocaleString('en-US')} cars on sale`);
      return url.toString();
    }
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  // The server migrates and seeds the demo accounts; then the cars go in with one statement.
  const server = await startServer({ DATABASE_URL: url.toString(), SEED_DEMO_CARS: 'small' });
  await server.stop();
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const start = performance.now();
  const [seller] = (await client.query(`select id from "user" where email = 'seller@demo.local'`))
    .rows as { id: string }[];
  // Indexes are built once after the load rather than kept up row by row.
  const indexes = (
    await client.query(
      `select indexname, indexdef from pg_indexes where tablename = 'listing' and indexname like 'listing_onsale%'`,
    )
  ).rows as { indexname: string; indexdef: string }[];
  for (const index of indexes) await client.query(`drop index ${index.indexname}`);
  await client.query(INSERT_SQL, insertParams(pgCars, seller!.id, data));
  await client.query('set maintenance_work_mem = $1', ['512MB']).catch(() => {});
  for (const index of indexes) await client.query(index.indexdef);
  await client.query('vacuum analyze listing');
  await client.end();
  console.log(
    `PostgreSQL: ${pgCars.toLocaleString('en-US')} cars on sale (+${(pgCars / 10).toLocaleString('en-US')} sold or withdrawn) in ${((performance.now() - start) / 1000).toFixed(0)} s`,
  );
  return url.toString();
}

async function seedPglite(dataDir: string, data: ReturnType<typeof dataArrays>) {
  const server = await startServer({ DATA_DIR: dataDir, SEED_DEMO_CARS: 'small' });
  await server.stop();
  const start = performance.now();
  const db = await PGlite.create(path.join(dataDir, 'db'), { extensions: { cube, earthdistance } });
  const seller = await db.query<{ id: string }>(
    `select id from "user" where email = 'seller@demo.local'`,
  );
  await db.query(INSERT_SQL, insertParams(pgliteCars, seller.rows[0]!.id, data));
  await db.exec('vacuum analyze listing');
  await db.close();
  console.log(
    `PGlite: ${pgliteCars.toLocaleString('en-US')} cars on sale in ${((performance.now() - start) / 1000).toFixed(0)} s`,
  );
}

// ---------------------------------------------------------------------------------------------

if (!flags.has('--no-build')) {
  const build = spawnSync('npm', ['run', '--silent', 'build:server'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const data = dataArrays();
const near = data.places.find((place) => place.label === 'New York City, NY') ?? data.places[0]!;
const searches = mix(near.id);

const pgUrl = await seedPostgres(data);
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
  await seedPglite(dataDir, data);
  const server = await startServer({ DATA_DIR: dataDir });
  const figures = await timeSearches(await signIn(), searches);
  const rss = server.peakRss();
  await server.stop();
  print(`PGlite, ${pgliteCars.toLocaleString('en-US')} cars (API only)`, figures, rss);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

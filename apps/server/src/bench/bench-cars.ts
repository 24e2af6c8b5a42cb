// Cars at scale for the benches (`bench:search`, `bench:search-budget`): the built server on a
// port, and a PostgreSQL or PGlite database seeded with up to millions of cars on sale in one
// INSERT … SELECT. Skewed popularity of makes, models and places, years 1995-2026, log-normal
// prices, mileage that grows with age.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { BODY_TYPES, COLOURS, FUELS, MAKES } from '@carmarket/shared';
import pg from 'pg';
import { searchPlaces } from '../modules/places/gazetteer.ts';

export const root = path.resolve(fileURLToPath(new URL('../../../..', import.meta.url)));
export const adminUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

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

export type CarData = ReturnType<typeof dataArrays>;

export function dataArrays() {
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

function insertParams(n: number, sellerId: string, data: CarData) {
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

export type BenchServer = Awaited<ReturnType<typeof startServer>>;

/** The built server (apps/server/dist) on `port`, once it answers ready. */
export async function startServer(port: number, env: Record<string, string>) {
  const origin = `http://127.0.0.1:${port}`;
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
    origin,
    pid: child.pid!,
    peakRss: () => peakRss,
    stop: async () => {
      clearInterval(sampler);
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** A demo account's session cookie. */
export async function signIn(origin: string, email = 'buyer@demo.local'): Promise<string> {
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password: 'demo-drive-2026' }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

// ---------------------------------------------------------------------------------------------
// Seeding

/** The PostgreSQL database both search benches use, so one's `--reuse` finds the other's cars. */
export const BENCH_SEARCH_DATABASE = 'carmarket_bench_search';

/**
 * A PostgreSQL database with `cars` cars on sale (and a tenth as many sold or withdrawn), made
 * fresh; with `reuse`, the previous run's when it holds at least as many. Answers its URL.
 */
export async function seedPostgres(options: {
  cars: number;
  data: CarData;
  port: number;
  reuse: boolean;
  name?: string;
}): Promise<string> {
  const { cars, data, port, reuse, name = BENCH_SEARCH_DATABASE } = options;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (reuse) {
    // The previous run's database, when it holds as many cars as this run asks for.
    const client = new pg.Client({ connectionString: url.toString() });
    const onSale = await client
      .connect()
      .then(() => client.query(`select count(*)::int as n from listing where status = 'available'`))
      .then((result) => (result.rows[0] as { n: number }).n)
      .catch(() => 0)
      .finally(() => client.end().catch(() => {}));
    if (onSale >= cars) {
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
  const server = await startServer(port, {
    DATABASE_URL: url.toString(),
    SEED_DEMO_CARS: 'small',
  });
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
  await client.query(INSERT_SQL, insertParams(cars, seller!.id, data));
  await client.query('set maintenance_work_mem = $1', ['512MB']).catch(() => {});
  for (const index of indexes) await client.query(index.indexdef);
  await client.query('vacuum analyze listing');
  await client.end();
  console.log(
    `PostgreSQL: ${cars.toLocaleString('en-US')} cars on sale (+${(cars / 10).toLocaleString('en-US')} sold or withdrawn) in ${((performance.now() - start) / 1000).toFixed(0)} s`,
  );
  return url.toString();
}

/** An embedded database in `dataDir` with `cars` cars on sale. */
export async function seedPglite(options: {
  dataDir: string;
  cars: number;
  data: CarData;
  port: number;
}) {
  const { dataDir, cars, data, port } = options;
  const server = await startServer(port, { DATA_DIR: dataDir, SEED_DEMO_CARS: 'small' });
  await server.stop();
  const start = performance.now();
  const db = await PGlite.create(path.join(dataDir, 'db'), { extensions: { cube, earthdistance } });
  const seller = await db.query<{ id: string }>(
    `select id from "user" where email = 'seller@demo.local'`,
  );
  await db.query(INSERT_SQL, insertParams(cars, seller.rows[0]!.id, data));
  await db.exec('vacuum analyze listing');
  await db.close();
  console.log(
    `PGlite: ${cars.toLocaleString('en-US')} cars on sale in ${((performance.now() - start) / 1000).toFixed(0)} s`,
  );
}

// `npm run bench:price-guide`: the price guide at scale (decision 032). Seeds a synthetic market
// whose price is a KNOWN function of make, model, age and mileage, times ~8 % log-normal noise:
// 1,000,000 cars on sale (and a tenth as many sold, some over 12 months ago) on PostgreSQL, then
// 100,000 on PGlite. Prints, per database: the refresh's time (fits and every car's rating; target
// under 60 s at 1M), the car page's p95 with the guide against without (target within 10 %), and a
// back-test on held-out cars listed after the fit: the share whose fair price lies within 10 % of
// the true price (target 90 %), and the share of those priced 25 % under / over it rated great /
// overpriced (target 95 %). The app runs in this process (buildApp) and the car page is asked
// through app.inject, signed in. Figures, not a test. Settings: BENCH_DATABASE_URL (an admin URL;
// default the local server; its database is dropped at the end), BENCH_PG_CARS, BENCH_PGLITE_CARS,
// BENCH_HELD_OUT, BENCH_PAGES (cars asked with a guide, and as many without); --no-pg,
// --no-pglite, --keep (keeps the PostgreSQL database, to look into). Also times the seller's
// guide (GET /api/price-guide) of the most common models, with their body type and without.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAKES } from '@carmarket/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { queryRows } from '../db/client.ts';
import { rateCars, refreshPriceGuide } from '../modules/price-guide/price-guide.service.ts';
import { percentile } from './search-bench-setup.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pgCars = Number(process.env.BENCH_PG_CARS ?? 1_000_000);
const pgliteCars = Number(process.env.BENCH_PGLITE_CARS ?? 100_000);
const heldOut = Number(process.env.BENCH_HELD_OUT ?? 3_000);
const pages = Number(process.env.BENCH_PAGES ?? 200);
const flags = new Set(process.argv.slice(2));
const DATABASE = 'carmarket_bench_price_guide';

// ---------------------------------------------------------------------------------------------
// The market's true price function

/** Mileage lowers the true log price by this much per 10,000 km, for every car. */
const MILEAGE_FALL = 0.03;
/** Log-normal noise on asking prices (sd of ln price). */
const NOISE = 0.08;

/**
 * Every make and model with its weight (popular makes and first models sell more), its new price
 * (dollars, fixed per model) and its make's fall in log price per year of age; body type per model.
 */
function marketLines() {
  const bodies = ['Hatchback', 'Sedan', 'Estate', 'SUV', 'Coupe', 'MPV'];
  return Object.entries(MAKES).flatMap(([make, models], m) =>
    models.map((model, i) => ({
      make,
      model,
      body: bodies[(m + i) % bodies.length]!,
      weight: 1 / (m + 3) / (i + 1.5),
      base: 14_000 + ((m * 7_919 + i * 104_729) % 70_000),
      ageFall: 0.05 + (m % 7) * 0.01,
    })),
  );
}

/** Tickets in proportion to weight, so a random index draws popular lines more often. */
function tickets(lines: ReturnType<typeof marketLines>, size = 20_000) {
  const sum = lines.reduce((total, line) => total + line.weight, 0);
  return lines.flatMap((line) =>
    Array<typeof line>(Math.max(1, Math.round((line.weight / sum) * size))).fill(line),
  );
}

/**
 * One INSERT … SELECT: `n` cars on sale (and `n / 10` sold, some over 12 months ago), or with
 * `held` `n` held-out cars on sale priced at exactly their true price times 0.75, 1 or 1.25 in
 * turn, named 'Held out'. Every car keeps its true price as its original price.
 */
async function insertCars(app: App, n: number, held: boolean) {
  const lines = tickets(marketLines());
  const [seller] = await queryRows<{ id: string }>(
    app.database.db,
    sql`select id from "user" where email = 'seller@demo.local'`,
  );
  const array = (values: unknown[], type: string) => sql`${sql.param(values)}::${sql.raw(type)}`;
  const makes = array(
    lines.map((line) => line.make),
    'text[]',
  );
  const count = held ? n : n + Math.floor(n / 10);
  const noise = held
    ? sql`(array[0.75, 1, 1.25])[1 + g % 3]`
    : sql.raw(`exp(${NOISE} * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()))`);
  await app.database.db.execute(sql`
    insert into listing (category_id, seller_id, seller_name, name, condition, location, year,
      mileage_km, reprice_cents, orprice_cents, currency, make, model, body_type, status, updated_at)
    select c.categories[1 + (g % 3)], ${seller!.id}::uuid, 'Bench Motors',
      ${held ? 'Held out' : 'Bench car'}, 'Good', 'Bench City',
      extract(year from current_date)::int - r.age, r.km,
      greatest(1, round(r.truth * ${noise}))::bigint, round(r.truth)::bigint, 'USD',
      r.make, r.model, r.body,
      case when g <= ${n}::int then 'available' else 'sold' end,
      now() - random() * interval '400 days'
    from generate_series(1, ${count}::int) as g
    cross join (select array_agg(id order by position) as categories from category) as c
    cross join lateral (
      select t.make, t.model, t.body, t.age, t.km,
        t.base * 100 * exp(-t.fall * t.age - ${MILEAGE_FALL}::float8 * t.km / 10000.0) as truth
      from (select (${makes})[i] as make,
          (${array(
            lines.map((line) => line.model),
            'text[]',
          )})[i] as model,
          (${array(
            lines.map((line) => line.body),
            'text[]',
          )})[i] as body,
          (${array(
            lines.map((line) => line.base),
            'float8[]',
          )})[i] as base,
          (${array(
            lines.map((line) => line.ageFall),
            'float8[]',
          )})[i] as fall,
          age, (age * (6000 + random() * 14000) + random() * 8000)::int as km
        from (select 1 + floor(random() * ${lines.length}::int)::int as i,
            floor(power(random(), 1.3) * 16)::int as age, g as _) as pick) as t
    ) as r`);
}

// ---------------------------------------------------------------------------------------------
// One database's run

interface Figures {
  database: string;
  cars: number;
  seedS: number;
  firstRefreshS: number;
  refreshS: number;
  fits: number;
  rated: number;
  withP95: number;
  withoutP95: number;
  withP50: number;
  withoutP50: number;
  guideWithP50: number;
  guideWithP95: number;
  guideWithoutP50: number;
  guideWithoutP95: number;
  heldOut: number;
  heldOutRated: number;
  within10: number;
  great: number;
  overpriced: number;
}

async function signIn(app: App): Promise<string> {
  const response = await app.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
    payload: { email: 'buyer@demo.local', password: 'demo-drive-2026' },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode}`);
  const cookies = response.headers['set-cookie'];
  return (Array.isArray(cookies) ? cookies : [cookies ?? ''])
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/**
 * Car pages through the app: half the sampled cars keep their guide, the other half have its row
 * taken away (their page says they have none), and the two are asked in turn, car by car, in
 * rounds, so both see the same machine at the same moment.
 */
async function timeCarPages(app: App, ids: string[]) {
  const cookie = await signIn(app);
  const page = async (id: string, guide: boolean) => {
    const start = performance.now();
    const response = await app.app.inject({
      method: 'GET',
      url: `/api/listings/${id}`,
      headers: { cookie },
    });
    const ms = performance.now() - start;
    if (response.statusCode !== 200) throw new Error(`car page: ${response.statusCode}`);
    const guided = (JSON.parse(response.body) as { priceGuide: unknown }).priceGuide !== null;
    if (guided !== guide) throw new Error(`a car page ${guide ? 'without' : 'with'} its guide`);
    return ms;
  };
  const half = Math.floor(ids.length / 2);
  const guided = ids.slice(0, half);
  const unguided = ids.slice(half, 2 * half);
  await app.database.db.execute(
    sql`delete from listing_deal where listing_id in (${sql.join(
      unguided.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  await app.database.db.execute(
    sql`update listing set deal_rating = null where id in (${sql.join(
      unguided.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  await app.database.db.execute(sql`vacuum analyze listing_deal`);
  for (let i = 0; i < half; i++) {
    await page(guided[i]!, true);
    await page(unguided[i]!, false);
  }
  const withGuide: number[] = [];
  const without: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < half; i++) {
      withGuide.push(await page(guided[i]!, true));
      without.push(await page(unguided[i]!, false));
    }
  }
  return {
    withP50: percentile(withGuide, 50),
    withP95: percentile(withGuide, 95),
    withoutP50: percentile(without, 50),
    withoutP95: percentile(without, 95),
  };
}

/**
 * The seller's guide of the 20 most common models (the ones whose usual body type takes the most
 * cars to find), asked with their body type and without, in turn, 5 rounds.
 */
async function timeSellersGuide(app: App) {
  const cookie = await signIn(app);
  const models = await queryRows<{ make: string; model: string; bodyType: string }>(
    app.database.db,
    sql`select make, model, min(body_type) as "bodyType" from listing
      where name = 'Bench car' group by make, model order by count(*) desc limit 20`,
  );
  const year = new Date().getFullYear() - 4;
  const ask = async (query: string) => {
    const start = performance.now();
    const response = await app.app.inject({
      method: 'GET',
      url: `/api/price-guide?${query}`,
      headers: { cookie },
    });
    const ms = performance.now() - start;
    if (response.statusCode !== 200) throw new Error(`seller's guide: ${response.statusCode}`);
    return ms;
  };
  const withBody: number[] = [];
  const without: number[] = [];
  for (let round = 0; round < 6; round++) {
    for (const { make, model, bodyType } of models) {
      const query = new URLSearchParams({ make, model, year: String(year), mileageKm: '60000' });
      const first = await ask(`${query}&bodyType=${encodeURIComponent(bodyType)}`);
      const second = await ask(String(query));
      // The first round warms the caches, and is not counted.
      if (round > 0) {
        withBody.push(first);
        without.push(second);
      }
    }
  }
  return {
    guideWithP50: percentile(withBody, 50),
    guideWithP95: percentile(withBody, 95),
    guideWithoutP50: percentile(without, 50),
    guideWithoutP95: percentile(without, 95),
  };
}

async function run(database: string, cars: number, env: Record<string, string>): Promise<Figures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-bench-price-guide-'));
  const config = loadConfig({
    ...process.env,
    // Not production (which asks for a public URL and a secret); responses are not validated either.
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    SEED_DEMO_CARS: 'small',
    COUNT_VIEWS: 'false',
    PRICE_GUIDE_REFRESH_MINUTES: '10000',
    // The seller's guide counts against the search budget; one person asks it here, one at a time.
    SEARCH_LIMIT_PER_MINUTE: '100000',
    DATABASE_URL: '',
    ...env,
  });
  const app = await buildApp({ config });
  try {
    const db = app.database.db;
    // The start's own refresh (of the demo cars) first, so it is not timed below.
    await app.runPriceGuide();
    const start = performance.now();
    // Indexes are built once after the load rather than kept up row by row (as bench:search).
    const indexes = await queryRows<{ indexname: string; indexdef: string }>(
      db,
      sql`select indexname, indexdef from pg_indexes where tablename = 'listing'
        and indexname like 'listing_onsale%'`,
    );
    for (const index of indexes) await db.execute(sql.raw(`drop index ${index.indexname}`));
    await insertCars(app, cars, false);
    for (const index of indexes) await db.execute(sql.raw(index.indexdef));
    await db.execute(sql`vacuum analyze listing`);
    const seedS = (performance.now() - start) / 1000;
    console.log(
      `${database}: ${cars.toLocaleString('en-US')} cars seeded in ${seedS.toFixed(0)} s`,
    );

    // The first refresh writes every rating into an empty table. Then an hour's changes (1 % of
    // the cars sold, 1 % more listed), and the refresh every later hour does: the fits move a
    // little, and nearly every car's fair price with them.
    const first = await refreshPriceGuide(db, { force: true });
    await db.execute(sql`vacuum analyze listing_deal`);
    await db.execute(sql`update listing set status = 'sold' where id in
      (select id from listing where status = 'available' order by id limit ${Math.floor(cars / 100)})`);
    await insertCars(app, Math.floor(cars / 100), false);
    await db.execute(sql`vacuum analyze listing`);
    const second = await refreshPriceGuide(db, { force: true });
    console.log(
      `${database}: refresh ${(first.ms / 1000).toFixed(1)} s (${first.carsWritten.toLocaleString('en-US')} cars' ratings written), after an hour's changes ${(second.ms / 1000).toFixed(1)} s (${second.fits} fits, ${second.rated.toLocaleString('en-US')} cars rated, ${second.carsWritten.toLocaleString('en-US')} cars' ratings written)`,
    );

    const sample = await queryRows<{ id: string }>(
      db,
      sql`select listing_id as id from listing_deal order by random() limit ${2 * pages}`,
    );
    const carPages = await timeCarPages(
      app,
      sample.map((row) => row.id),
    );
    const sellersGuide = await timeSellersGuide(app);

    // Held-out cars, listed after the fit: each rated from the fits as a new car is.
    await insertCars(app, heldOut, true);
    const held = await queryRows<{ id: string }>(
      db,
      sql`select id from listing where name = 'Held out'`,
    );
    await db.transaction((tx) =>
      rateCars(
        tx,
        held.map((row) => row.id),
      ),
    );
    const [test] = await queryRows<{
      n: number;
      rated: number;
      within10: number;
      great: number;
      overpriced: number;
    }>(
      db,
      sql`select count(*)::int as n, count(d.listing_id)::int as rated,
        avg((abs(d.fair_cents::float8 / l.orprice_cents - 1) <= 0.10)::int)::float8 as within10,
        avg(case when l.reprice_cents < l.orprice_cents * 0.9 then (coalesce(d.rating, '') = 'great')::int end)::float8 as great,
        avg(case when l.reprice_cents > l.orprice_cents * 1.1 then (coalesce(d.rating, '') = 'overpriced')::int end)::float8 as overpriced
      from listing l left join listing_deal d on d.listing_id = l.id
      where l.name = 'Held out'`,
    );
    return {
      database,
      cars,
      seedS,
      firstRefreshS: first.ms / 1000,
      refreshS: second.ms / 1000,
      fits: second.fits,
      rated: second.rated,
      ...carPages,
      ...sellersGuide,
      heldOut: test!.n,
      heldOutRated: test!.rated,
      within10: Number(test!.within10),
      great: Number(test!.great),
      overpriced: Number(test!.overpriced),
    };
  } finally {
    await app.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(figures: Figures) {
  const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
  const ratio = figures.withP95 / figures.withoutP95;
  console.log(`
${figures.database}, ${figures.cars.toLocaleString('en-US')} cars on sale
  refresh (fits + every rating)   ${figures.refreshS.toFixed(1)} s after an hour's changes (the first, into an empty table: ${figures.firstRefreshS.toFixed(1)} s)   target < 60 s at 1M
  fits / cars rated               ${figures.fits} / ${figures.rated.toLocaleString('en-US')}
  car page p50 with / without     ${figures.withP50.toFixed(2)} / ${figures.withoutP50.toFixed(2)} ms
  car page p95 with / without     ${figures.withP95.toFixed(2)} / ${figures.withoutP95.toFixed(2)} ms   ratio ${ratio.toFixed(3)}   target <= 1.10
  seller's guide p50 / p95, with body type      ${figures.guideWithP50.toFixed(2)} / ${figures.guideWithP95.toFixed(2)} ms
  seller's guide p50 / p95, without body type   ${figures.guideWithoutP50.toFixed(2)} / ${figures.guideWithoutP95.toFixed(2)} ms
  held-out cars (rated)           ${figures.heldOut} (${figures.heldOutRated})
  fair within 10 % of the truth   ${percent(figures.within10)}   target >= 90 %
  25 % under rated great          ${percent(figures.great)}   target >= 95 %
  25 % over rated overpriced      ${percent(figures.overpriced)}   target >= 95 %`);
}

const results: Figures[] = [];
if (!flags.has('--no-pg')) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${DATABASE} with (force)`);
  await admin.query(`create database ${DATABASE}`);
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE}`;
  try {
    results.push(await run('PostgreSQL', pgCars, { DATABASE_URL: url.toString() }));
  } finally {
    if (!flags.has('--keep')) await admin.query(`drop database if exists ${DATABASE} with (force)`);
    await admin.end();
  }
}
if (!flags.has('--no-pglite')) results.push(await run('PGlite', pgliteCars, {}));
for (const figures of results) print(figures);

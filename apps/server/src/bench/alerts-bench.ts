// `npm run bench:alerts`: matching new cars against saved searches at scale (decision 010).
// Seeds a fresh PostgreSQL database (BENCH_DATABASE_URL, an admin URL; default the local server)
// with 100,000 saved searches of varied filters and 1,000 new cars, then times what the alert
// worker does with them: matching every (search, car) pair, and sending the instant alerts to
// the outbox. Beside it, in the same run, the baseline the design avoids: every saved search
// read for each car (no make index), on a sample of the cars. Figures, not a test.
// Settings: BENCH_SEARCHES, BENCH_NEW_CARS, BENCH_DATABASE_URL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BODY_TYPES, FUELS, MAKES } from '@carmarket/shared';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { openDatabase, queryRows } from '../db/client.ts';
import { scryptPasswords } from '../modules/auth/passwords.ts';
import { seedDatabase } from '../seed/seed.ts';
import { createMailer } from '../adapters/mail.ts';
import type { AlertDeps } from '../modules/saved/alert-mail.ts';
import { matchNewCars } from '../modules/saved/alert-matching.ts';
import { sendInstantAlerts } from '../modules/saved/search-alerts.ts';
import { deliverQueuedMail } from '../modules/mail/mail-queue.ts';
import { unsubscribeTokens } from '../modules/saved/unsubscribe.ts';
import { carMatchKeysSql } from '../modules/saved/saved-searches.service.ts';
import { searchPlaces } from '../modules/places/gazetteer.ts';
import { createLocalStorage } from '../adapters/storage.ts';
import { serverRoot } from '../config.ts';
import pg from 'pg';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const searches = Number(process.env.BENCH_SEARCHES ?? 100_000);
const newCars = Number(process.env.BENCH_NEW_CARS ?? 1_000);
const TARGET_MS_PER_CAR = 20;

const name = 'carmarket_bench_alerts';
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.query(`create database ${name}`);
await admin.end();
const url = new URL(adminUrl);
url.pathname = `/${name}`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-bench-alerts-'));
const database = await openDatabase({
  url: url.toString(),
  pgliteDir: path.join(dataDir, 'db'),
  poolSize: 10,
  migrationsDir: path.join(serverRoot, 'src/db/migrations'),
});
await database.migrate();
const storage = createLocalStorage(path.join(dataDir, 'media'));
await seedDatabase(database.db, storage, {
  demo: true,
  demoCars: 'small',
  currency: 'USD',
  demoPassword: 'demo-drive-2026',
  passwords: scryptPasswords,
});
const { db } = database;

// Data: skewed makes and models, 300 places; a tenth of searches name no make (and then a body
// type or a place, a fuel and a price), as people narrow a search they mean to be told about.
const makes = Object.keys(MAKES);
const models = makes.map((make) => MAKES[make as keyof typeof MAKES] as readonly string[]);
const places = 'abcdefghijklmnopqrstuvwxyz'
  .split('')
  .flatMap((letter) => searchPlaces(letter, 12))
  .slice(0, 300);
const skewed = (n: number) => `least(${n} - 1, floor(power(random(), 2.2) * ${n}))::int + 1`;
const pickMake = `(($1::text[])[${skewed(makes.length)}])`;
const arrays = [
  makes,
  models.map((list) => list.join('|')),
  places.map((p) => p.lat),
  places.map((p) => p.lng),
  [...BODY_TYPES],
  [...FUELS],
];

let start = performance.now();
await db.execute(sql`
  insert into "user" (name, email, roles, email_verified)
  select 'Bench Buyer ' || g, 'bench' || g || '@example.com', array['Buyer'], true
  from generate_series(1, ${Math.ceil(searches / 5)}) g`);
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
await client.query(
  `insert into saved_search (user_id, name, query, alerts, makes, models, match_keys, body_types, fuels,
     year_min, price_max, mileage_max, lat, lng, radius_m, text_query)
   select u.id, 'Bench search', 'make=' || m.make, (array['instant','instant','daily','off'])[1 + (g % 4)],
     case when r.no_make then null
          when r.two then array[m.make, ($1::text[])[1 + (m.i % ${makes.length})]]
          else array[m.make] end,
     case when not r.no_make and not r.two and r.model then array[split_part(($2::text[])[m.i], '|', 1)] end,
     case when r.no_make and (r.body or not r.near) then array['body:' || ($5::text[])[1 + (g % ${BODY_TYPES.length})]]
          when r.no_make then array['fuel:' || ($6::text[])[1 + (g % ${FUELS.length})]]
          when r.two then array[m.make || '|*', ($1::text[])[1 + (m.i % ${makes.length})] || '|*']
          when r.model then array[m.make || '|' || split_part(($2::text[])[m.i], '|', 1)]
          else array[m.make || '|*'] end,
     case when r.body or (r.no_make and not r.near) then array[($5::text[])[1 + (g % ${BODY_TYPES.length})]] end,
     case when r.fuel or r.no_make then array[($6::text[])[1 + (g % ${FUELS.length})]] end,
     case when r.years then 2005 + (g % 18) end,
     case when r.price or r.no_make then (5000 + (g % 60) * 1000) * 100 end,
     case when r.mileage then 30000 + (g % 15) * 10000 end,
     case when r.near then ($3::float8[])[1 + (g % ${places.length})] end,
     case when r.near then ($4::float8[])[1 + (g % ${places.length})] end,
     case when r.near then (25 + (g % 8) * 25) * 1000 end,
     case when r.text then plainto_tsquery('simple', lower(split_part(($2::text[])[m.i], '|', 1))) end
   from generate_series(1, ${searches}) g
   join lateral (select id from "user" where email = 'bench' || (1 + g % ${Math.ceil(searches / 5)}) || '@example.com') u on true
   cross join lateral (select random() < 0.1 as no_make, random() < 0.1 as two, random() < 0.5 as model,
     random() < 0.15 as body, random() < 0.15 as fuel, random() < 0.4 as years, random() < 0.6 as price,
     random() < 0.3 as mileage, random() < 0.2 as near, random() < 0.1 as text, g as _) r
   cross join lateral (select ${pickMake} as make, g as _) pick
   cross join lateral (select pick.make, array_position($1::text[], pick.make) as i) m`,
  arrays,
);
const [seller] = await queryRows<{ id: string; category_id: string }>(
  db,
  sql`select u.id, (select id from category limit 1) as category_id from "user" u where email = 'seller@demo.local'`,
);
await client.query(
  `with cars as (
     insert into listing (category_id, seller_id, seller_name, name, description, condition, location,
       year, mileage_km, make, model, body_type, fuel, reprice_cents, orprice_cents, currency, lat, lng)
     select $7, $8, 'Bench Seller', m.make || ' ' || m.model, 'A car for the alerts bench.', 'Good', 'Bench',
       2000 + (g % 26), 5000 + (g % 40) * 5000, m.make, m.model,
       ($5::text[])[1 + (g % ${BODY_TYPES.length})], ($6::text[])[1 + (g % ${FUELS.length})],
       (4000 + (g % 80) * 900) * 100, (6000 + (g % 80) * 900) * 100, 'USD',
       ($3::float8[])[1 + (g % ${places.length})], ($4::float8[])[1 + (g % ${places.length})]
     from generate_series(1, ${newCars}) g
     cross join lateral (select ${pickMake} as make, g as _) pick
     cross join lateral (select pick.make, split_part(($2::text[])[array_position($1::text[], pick.make)], '|',
       1 + (g % 3)) as model) m
     returning id)
   insert into new_car_queue (listing_id) select id from cars`,
  [...arrays, seller!.category_id, seller!.id],
);
await client.query('vacuum analyze saved_search');
await client.query('vacuum analyze listing');
console.log(
  `Seeded ${searches.toLocaleString('en-US')} saved searches and ${newCars.toLocaleString('en-US')} new cars in ${((performance.now() - start) / 1000).toFixed(0)} s`,
);

// The same match, counted (not stored) for a sample of cars: through the make index as the
// worker does, and the baseline the design avoids, every saved search read for each car.
const sample = Math.min(500, newCars);
const matchSql = (join: string) => `
  with cars as materialized (
    select car.*, key from listing car cross join unnest(${carMatchKeysSql('car')}) as key
    where id in (select listing_id from new_car_queue order by queued_at limit ${sample})
  ), searches as materialized (
    select search.*, key from saved_search search cross join unnest(search.match_keys) as key
  )
  select count(*)::int as n
  from ${join}
  where (s.category_id is null or l.category_id = s.category_id)
    and (s.makes is null or l.make = any(s.makes))
    and (s.models is null or l.model = any(s.models))
    and (s.body_types is null or l.body_type = any(s.body_types))
    and (s.fuels is null or l.fuel = any(s.fuels))
    and (s.year_min is null or l.year >= s.year_min)
    and (s.price_max is null or l.reprice_cents <= s.price_max)
    and (s.mileage_max is null or l.mileage_km <= s.mileage_max)
    and (s.text_query is null or l.search_doc @@ s.text_query)
    and (s.lat is null or (l.lat is not null and earth_distance(ll_to_earth(s.lat, s.lng), ll_to_earth(l.lat, l.lng)) <= s.radius_m))`;
await client.query('set jit = off');
const timeCount = async (join: string) => {
  await client.query(matchSql(join));
  const began = performance.now();
  const result = await client.query(matchSql(join));
  return { perCar: (performance.now() - began) / sample, n: (result.rows[0] as { n: number }).n };
};
const indexed = await timeCount('searches s join cars l on l.key = s.key');
// Every search against every car (the cars' rows narrowed to one key, so each pair counts once).
const scanned = await timeCount("saved_search s cross join (select * from cars where key = '*') l");

const outboxDir = path.join(dataDir, 'outbox');
const quiet = new Proxy({}, { get: () => () => undefined }) as FastifyBaseLogger;
const deps: AlertDeps = {
  db,
  mailer: createMailer({ smtpUrl: undefined, from: 'bench@example.com', outboxDir, log: quiet }),
  log: quiet,
  siteOrigin: () => 'http://127.0.0.1:3000',
  unsubscribe: unsubscribeTokens('bench-secret'),
  digestHours: 24,
  // The limit is not what is measured: one mail for each search, as before it.
  mailsPerDay: 1_000_000,
};

start = performance.now();
let matchedCars = 0;
for (let n = await matchNewCars(db); n > 0; n = await matchNewCars(db)) matchedCars += n;
const matchMs = performance.now() - start;
const [{ pairs } = { pairs: 0 }] = await queryRows<{ pairs: number }>(
  db,
  sql`select count(*)::int as pairs from saved_search_match`,
);

start = performance.now();
let alerts = 0;
for (
  let run = await sendInstantAlerts(deps);
  run.claimed > 0;
  run = await sendInstantAlerts(deps)
) {
  alerts += run.sent;
}
const queueMs = performance.now() - start;
const delivered = await deliverQueuedMail(db, deps.mailer, quiet);
const sendMs = performance.now() - start;
const mails = fs.readdirSync(outboxDir).length;

const perCar = matchMs / matchedCars;
console.log(
  `\nAlerts, PostgreSQL: ${searches.toLocaleString('en-US')} saved searches, ${matchedCars} new cars`,
);
console.log(`  matching (search, car) pairs found     ${pairs.toLocaleString('en-US')}`);
console.log(`  matching, all cars                     ${matchMs.toFixed(0)} ms`);
console.log(
  `  database time per new car              ${perCar.toFixed(2)} ms   (target <= ${TARGET_MS_PER_CAR} ms: ${perCar <= TARGET_MS_PER_CAR ? 'met' : 'MISSED'})`,
);
console.log(
  `  finding matches only, ${sample} cars: through the match keys ${indexed.perCar.toFixed(2)} ms per car; baseline, every search read per car ${scanned.perCar.toFixed(2)} ms (${(scanned.perCar / indexed.perCar).toFixed(1)}x; ${indexed.n === scanned.n ? 'same' : 'DIFFERENT'} ${indexed.n} matches)`,
);
console.log(
  `  instant alerts written to the queue    ${alerts.toLocaleString('en-US')} mails in ${queueMs.toFixed(0)} ms (${(queueMs / Math.max(1, alerts)).toFixed(2)} ms per mail)`,
);
console.log(
  `  ... and sent to the outbox             ${delivered.toLocaleString('en-US')} mails (${mails} files), ${sendMs.toFixed(0)} ms in all (${(sendMs / Math.max(1, alerts)).toFixed(2)} ms per mail)`,
);
console.log(`  match + send, all                      ${(matchMs + sendMs).toFixed(0)} ms`);

await client.end();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });

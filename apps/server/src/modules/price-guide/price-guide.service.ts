import { inArray, sql, type SQL } from 'drizzle-orm';
import { DEAL_RATINGS, type PriceGuide, type PriceGuideQuery } from '@carmarket/shared';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { listingDeal, priceGuideBody, priceGuideFit } from '../../db/schema.ts';
import {
  BAND_SDS,
  MILEAGE_UNIT_KM,
  MIN_COMPARABLES,
  MIN_RESIDUAL_SD,
  RANGE_THIRDS,
  solveFit,
  type GroupSums,
} from './price-guide.model.ts';

/*
 * The price guide's data (decision 032): `price_guide_fit` holds one fit per group of comparable
 * cars, replaced whole by each refresh; `listing_deal` holds each car on sale's fair price, band
 * and rating, rewritten by each refresh and for one car when it is listed or changed, from the
 * newest fits. The rating is kept on the car too (`listing.deal_rating`, what search filters and
 * counts by), written with `listing_deal` and only where it changed: a rating changes rarely, and
 * writing a car's row rewrites every index of the cars' table (the column is in one).
 */

type Scope = (typeof priceGuideFit.$inferSelect)['scope'];

/** Held (transaction-level) by the refresh: one process at a time refreshes. */
const REFRESH_LOCK_KEY = 7_304_190_032;

/** The cars a fit is drawn from: those on sale, and those sold in the last 12 months. */
const MARKET = sql.raw(`reprice_cents > 0 and mileage_km is not null and (
    status in ('available', 'reserved')
    or (status = 'sold' and updated_at > now() - interval '12 months'))`);

/** A car's age in whole years, this year's models 0. */
const AGE = sql.raw(`(extract(year from current_date)::int - year)`);

interface GroupRow extends GroupSums {
  byModel: boolean;
  byMake: boolean;
  currency: string;
  make: string | null;
  model: string | null;
  bodyType: string | null;
}

/**
 * Sums per group over the market, in one pass: make and model, make and body type, body type
 * (each within a currency). Every aggregate is plain SQL both PostgreSQL and PGlite run.
 */
async function groupSums(tx: Tx): Promise<GroupRow[]> {
  return queryRows<GroupRow>(
    tx,
    sql`with market as (
      select currency, make, model, body_type,
        ${AGE}::float8 as x1,
        mileage_km::float8 / ${MILEAGE_UNIT_KM} as x2,
        ln(reprice_cents::float8) as y
      from listing where ${MARKET}
    )
    select grouping(model) = 0 as "byModel", grouping(make) = 0 as "byMake",
      currency, make, model, body_type as "bodyType", count(*)::int as n,
      sum(x1) as s1, sum(x2) as s2, sum(y) as sy, sum(x1 * x1) as s11, sum(x2 * x2) as s22,
      sum(x1 * x2) as s12, sum(x1 * y) as s1y, sum(x2 * y) as s2y, sum(y * y) as syy
    from market
    group by grouping sets ((currency, make, model), (currency, make, body_type), (currency, body_type))
    having count(*) >= ${MIN_COMPARABLES}`,
  );
}

/**
 * The group a row of sums is, or null for groups that compare unlike cars: the model "Other"
 * (any car its make does not list), the make "Other", and cars without a body type.
 */
function groupOf(
  row: GroupRow,
): { scope: Scope; make: string; model: string; bodyType: string } | null {
  if (row.byModel) {
    if (row.model === 'Other' || row.make === 'Other') return null;
    return { scope: 'model', make: row.make!, model: row.model!, bodyType: '' };
  }
  if (row.bodyType === null) return null;
  if (row.byMake) {
    if (row.make === 'Other') return null;
    return { scope: 'make_body', make: row.make!, model: '', bodyType: row.bodyType };
  }
  return { scope: 'body', make: '', model: '', bodyType: row.bodyType };
}

/**
 * The body type a car is compared by, past its make and model: its own, else the one most cars
 * of its make and model in the market have (a seller's guide asked without one, a car listed
 * without one), as the last refresh found it (`price_guide_body`): one row read, where counting
 * a popular model's cars took half a second a call. The catalogue (vehicles.ts) does not say a
 * model's body type.
 */
const GUIDE_BODY = sql`coalesce(l.body_type, (select u.body_type from price_guide_body u
  where u.currency = l.currency and u.make = l.make and u.model = l.model))`;

/**
 * Writes each make and model's usual body type in the market (the most cars; between equals the
 * first by name) into `price_guide_body`, replacing the last refresh's.
 */
async function writeUsualBodies(tx: Tx): Promise<void> {
  await tx.delete(priceGuideBody);
  await tx.execute(sql`insert into price_guide_body (currency, make, model, body_type, cars)
    select distinct on (currency, make, model) currency, make, model, body_type, cars
    from (select currency, make, model, body_type, count(*)::int as cars from listing
      where body_type is not null and ${MARKET}
      group by currency, make, model, body_type) as bodies
    order by currency, make, model, cars desc, body_type`);
}

/** The fits of each car's first group with enough comparables (price_guide_fit m, b, t). */
const FIT_JOINS = sql.raw(`
  left join price_guide_fit m on m.scope = 'model' and m.currency = l.currency
    and m.make = l.make and m.model = l.model and m.body_type = ''
  left join price_guide_fit b on b.scope = 'make_body' and b.currency = l.currency
    and b.make = l.make and b.model = '' and b.body_type = l.guide_body
  left join price_guide_fit t on t.scope = 'body' and t.currency = l.currency
    and t.make = '' and t.model = '' and t.body_type = l.guide_body`);
/** One column of the chosen fit: each fit's columns are all set, so this picks one fit whole. */
const fit = (column: string) => sql.raw(`coalesce(m.${column}, b.${column}, t.${column})`);

/**
 * The rating (RANGE_THIRDS): below the typical range's low `great`, above its high `overpriced`,
 * against the very cents the page draws; within it by its position there, from -1 to 1.
 */
const RATING = sql.raw(`case when fair_cents is null then null
    when reprice_cents < low_cents then 'great' when reprice_cents > high_cents then 'overpriced'
    ${RANGE_THIRDS.map(([rating, upTo]) => `when position <= ${upTo} then '${rating}'`).join(' ')}
    else 'high' end`);

/**
 * listing_deal's `ratio`, the `deal` sort's key (lowest first): the rating's rank, best first,
 * then within a rating asking over fair price, in [0, 1) as ratio / (1 + ratio). The rating
 * comes first because it is read against each group's own typical range: a car 15 % under in a
 * tight group is great, one 20 % under in a loose group only good.
 */
const SORT_KEY = sql.raw(
  `case rating ${DEAL_RATINGS.map((rating, rank) => `when '${rating}' then ${rank}`).join(' ')} end + ratio / (1 + ratio)`,
);

/** The columns of listing_deal, in order. */
const DEAL_COLUMNS = sql.raw(
  'listing_id, fair_cents, low_cents, high_cents, comparables, ratio, rating',
);
const UPDATE_DEAL = sql.raw(`fair_cents = excluded.fair_cents, low_cents = excluded.low_cents,
  high_cents = excluded.high_cents, comparables = excluded.comparables, ratio = excluded.ratio,
  rating = excluded.rating`);
/** What a car was rated from: its row is written only while the car still has them. */
const RATED_FROM_NAMES = [
  'reprice_cents',
  'currency',
  'make',
  'model',
  'body_type',
  'year',
  'mileage_km',
];
const RATED_FROM = sql.raw(RATED_FROM_NAMES.join(', '));
const ratedFrom = (alias: string) =>
  sql.raw(RATED_FROM_NAMES.map((name) => `${alias}.${name}`).join(', '));

/**
 * The guide and rating of each car `cars` yields (a from-clause aliased `l` with listing's
 * columns RATED_FROM and `id`), from the newest fits: listing_deal's columns, null without a
 * fit, then RATED_FROM. The one place the fair price, the range and the rating are worked out,
 * for cars on sale and for a seller's guide alike; a car's age is counted from the database's date.
 */
function guides(cars: SQL): SQL {
  return sql`select listing_id, fair_cents, low_cents, high_cents, comparables,
      ${SORT_KEY} as ratio, rating, ${RATED_FROM}
    from (select *, ${RATING} as rating
    from (select *, round(exp(ln_fair))::bigint as fair_cents,
        round(exp(ln_fair - spread))::bigint as low_cents,
        round(exp(ln_fair + spread))::bigint as high_cents,
        reprice_cents / exp(ln_fair) as ratio,
        (ln(greatest(reprice_cents, 1)::float8) - ln_fair) / spread as position
      from (select l.id as listing_id, ${ratedFrom('l')},
          ${fit('intercept')} + ${fit('age_slope')} * ${AGE}
            + ${fit('mileage_slope')} * coalesce(l.mileage_km, ${fit('mean_mileage_km')}) / ${MILEAGE_UNIT_KM}
            as ln_fair,
          ${BAND_SDS} * greatest(${fit('residual_sd')}, ${MIN_RESIDUAL_SD}) as spread,
          ${fit('comparables')} as comparables
        from (select l.*, ${GUIDE_BODY} as guide_body from ${cars}) as l ${FIT_JOINS}) as guided
      ) as placed) as rated`;
}

/**
 * listing_deal's columns and RATED_FROM of the cars on sale `which` selects (a condition on `l`);
 * a car without a fit has nulls.
 */
function ratedCars(which: SQL): SQL {
  return guides(sql`(select id, ${RATED_FROM} from listing l
    where l.status in ('available', 'reserved') and ${which}) as l`);
}

/**
 * Sets `listing.deal_rating` of the cars `which` selects (a condition on `l`) to their rating in
 * listing_deal, null without a row, writing only the cars whose rating changed. Raw SQL, so the
 * car's `updated_at` (the sale's date for a sold car; "changed since" for the refresh) stays.
 */
function copyRatings(which: SQL): SQL {
  return sql`update listing l set deal_rating = (select d.rating from listing_deal d where d.listing_id = l.id)
    where ${which} and l.deal_rating is distinct from
      (select d.rating from listing_deal d where d.listing_id = l.id)`;
}

/**
 * Rewrites every car on sale's row of listing_deal from the newest fits, set by set: the rows
 * are worked out once into a temporary table, then the ones that changed are updated in place,
 * those of cars no longer rated deleted and those of cars rated for the first time inserted.
 * Updating, rather than emptying the table and inserting every row again, spares a check of the
 * foreign key for each row, which locks that row of `listing` (writing every page of the cars'
 * table): at 1,000,000 cars that was most of the time. Then each car's `deal_rating` follows,
 * written where it differs: cars whose rating changed, and cars no longer on sale (withdrawn)
 * that still carry one. Answers how many cars are rated, and how many cars' rows were written.
 */
async function rewriteDeals(tx: Tx): Promise<{ rated: number; carsWritten: number }> {
  // A car's row is written only while it is on sale with what it was rated from (the temporary
  // table keeps those): a seller's change committed since then rated the car by its event, at
  // its new price, and that row stays. Compared by value, not by time: a change's updated_at is
  // the app's clock or its transaction's start, either of which may be before this refresh began.
  const unchanged = (r: string, l: string) =>
    sql.raw(`${l}.status in ('available', 'reserved')
      and (${RATED_FROM_NAMES.map((name) => `${l}.${name}`).join(', ')})
        is not distinct from (${RATED_FROM_NAMES.map((name) => `${r}.${name}`).join(', ')})`);
  const stillAsRated = (r: string) =>
    sql`exists (select 1 from listing l where l.id = ${sql.raw(r)}.listing_id and ${unchanged(r, 'l')})`;
  // Hash joins of a million rows each side, without spilling to disk in batches.
  await tx.execute(sql`set local work_mem = '64MB'`);
  // Every car on sale, with a null rating where no group has a fit.
  await tx.execute(
    sql`create temporary table price_guide_rated on commit drop as ${ratedCars(sql`true`)}`,
  );
  await tx.execute(sql`update listing_deal d set fair_cents = r.fair_cents,
      low_cents = r.low_cents, high_cents = r.high_cents, comparables = r.comparables,
      ratio = r.ratio, rating = r.rating
    from price_guide_rated r
    where d.listing_id = r.listing_id and r.rating is not null
      and (d.fair_cents, d.low_cents, d.high_cents, d.comparables, d.ratio, d.rating)
        is distinct from (r.fair_cents, r.low_cents, r.high_cents, r.comparables, r.ratio, r.rating)
      and ${stillAsRated('r')}`);
  // Rows of cars off sale now, and of cars on sale without a fit that are as they were rated.
  await tx.execute(sql`delete from listing_deal d
    where not exists (select 1 from price_guide_rated r
        where r.listing_id = d.listing_id and r.rating is not null)
      and (not exists (select 1 from listing l
          where l.id = d.listing_id and l.status in ('available', 'reserved'))
        or exists (select 1 from price_guide_rated r
          where r.listing_id = d.listing_id and ${stillAsRated('r')}))`);
  await tx.execute(sql`insert into listing_deal (${DEAL_COLUMNS})
    select ${DEAL_COLUMNS} from price_guide_rated r
    where r.rating is not null
      and not exists (select 1 from listing_deal d where d.listing_id = r.listing_id)
      and ${stillAsRated('r')}
    on conflict (listing_id) do nothing`);
  // From the rows just worked out (one scan of the cars, hashed against them), every car whose
  // rating differs: rated anew, rated otherwise, or no longer rated (its group too small, or the
  // car withdrawn: only cars on sale are in price_guide_rated). The condition is on the car's
  // row itself, so a car a seller is changing is checked again, as committed, once its lock is
  // free: a car changed since it was rated, or put back on sale, was written by its event.
  const [written] = await queryRows<{ n: number }>(
    tx,
    sql`with written as (update listing l set deal_rating = r.rating
      from (select c.id, p.rating, p.listing_id is not null as seen, ${ratedFrom('p')}
        from listing c
        left join price_guide_rated p on p.listing_id = c.id
        where c.deal_rating is distinct from p.rating) as r
      where l.id = r.id and case when r.seen then ${unchanged('r', 'l')}
        else l.status not in ('available', 'reserved') end
      returning 1)
    select count(*)::int as n from written`,
  );
  const [count] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from price_guide_rated where rating is not null`,
  );
  return { rated: count?.n ?? 0, carsWritten: written?.n ?? 0 };
}

/**
 * Rates these cars from the newest fits, at once (a car listed, repriced, changed or back on
 * sale): in the caller's transaction, so the rating is kept exactly when the change is.
 */
export async function rateCars(tx: Tx, carIds: string[]): Promise<void> {
  if (carIds.length === 0) return;
  await tx.delete(listingDeal).where(inArray(listingDeal.listingId, carIds));
  const ids = sql.join(
    carIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await tx.execute(sql`insert into listing_deal (${DEAL_COLUMNS})
    select ${DEAL_COLUMNS} from (${ratedCars(sql`l.id in (${ids})`)}) as r where rating is not null
    on conflict (listing_id) do update set ${UPDATE_DEAL}`);
  await tx.execute(copyRatings(sql`l.id in (${ids})`));
}

/** Forgets these cars' ratings (sold, removed). */
export async function forgetCars(tx: Tx, carIds: string[]): Promise<void> {
  if (carIds.length === 0) return;
  await tx.delete(listingDeal).where(inArray(listingDeal.listingId, carIds));
  const ids = sql.join(
    carIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await tx.execute(copyRatings(sql`l.id in (${ids})`));
}

export interface RefreshResult {
  /** False when another process was refreshing, or had refreshed within the interval. */
  refreshed: boolean;
  fits: number;
  rated: number;
  /** Cars whose `deal_rating` the refresh wrote (it changed, or the car left the market). */
  carsWritten: number;
  ms: number;
}

/**
 * Fits every group again, finds each model's usual body type and rewrites every car on sale's
 * rating, in one transaction: readers see the old fits and ratings until it commits. Under a
 * transaction-level advisory lock: a process that finds it taken skips (another is refreshing),
 * and unless `force`, so does one that finds fits newer than `freshForMs` (another process
 * refreshed this interval). `force` (tests, the benchmark) waits for the lock instead and always
 * refreshes.
 */
export async function refreshPriceGuide(
  db: Db,
  { force = false, freshForMs = 0 }: { force?: boolean; freshForMs?: number } = {},
): Promise<RefreshResult> {
  const started = performance.now();
  return db.transaction(async (tx) => {
    const skipped = { refreshed: false, fits: 0, rated: 0, carsWritten: 0, ms: 0 };
    if (force) {
      await tx.execute(sql`select pg_advisory_xact_lock(${REFRESH_LOCK_KEY})`);
    } else {
      const [lock] = await queryRows<{ locked: boolean }>(
        tx,
        sql`select pg_try_advisory_xact_lock(${REFRESH_LOCK_KEY}) as locked`,
      );
      if (!lock?.locked) return skipped;
      const [fresh] = await queryRows<{ fresh: boolean }>(
        tx,
        sql`select coalesce(max(fitted_at) > now() - make_interval(secs => ${freshForMs / 1000}), false) as fresh
          from price_guide_fit`,
      );
      if (fresh?.fresh) return skipped;
    }
    const fits = [];
    for (const row of await groupSums(tx)) {
      const group = groupOf(row);
      if (!group) continue;
      const sums = {
        n: Number(row.n),
        s1: Number(row.s1),
        s2: Number(row.s2),
        sy: Number(row.sy),
        s11: Number(row.s11),
        s22: Number(row.s22),
        s12: Number(row.s12),
        s1y: Number(row.s1y),
        s2y: Number(row.s2y),
        syy: Number(row.syy),
      };
      fits.push({ ...group, currency: row.currency, comparables: sums.n, ...solveFit(sums) });
    }
    await tx.delete(priceGuideFit);
    for (let at = 0; at < fits.length; at += 1000) {
      await tx.insert(priceGuideFit).values(fits.slice(at, at + 1000));
    }
    await writeUsualBodies(tx);
    const { rated, carsWritten } = await rewriteDeals(tx);
    return {
      refreshed: true,
      fits: fits.length,
      rated,
      carsWritten,
      ms: performance.now() - started,
    };
  });
}

/**
 * The guide for a car described by a seller (not yet listed), worked out as a listed car's
 * (`guides`): from its first group with a fit; without a body type, its model's most common.
 * Undefined when no group has enough comparables.
 */
export async function guideFor(
  db: Db,
  query: PriceGuideQuery,
  currency: string,
): Promise<PriceGuide | undefined> {
  const [row] = await queryRows<{ fair: string; low: string; high: string; comparables: number }>(
    db,
    sql`select fair_cents as fair, low_cents as low, high_cents as high, comparables
      from (${guides(sql`(select null::uuid as id, 0::bigint as reprice_cents,
        ${currency}::text as currency, ${query.make}::text as make, ${query.model}::text as model,
        ${query.bodyType ?? null}::text as body_type, ${query.year}::int as year,
        ${query.mileageKm ?? null}::int as mileage_km) as l`)}) as guide
      where fair_cents is not null`,
  );
  if (!row) return undefined;
  return {
    fair: Number(row.fair),
    low: Number(row.low),
    high: Number(row.high),
    comparables: Number(row.comparables),
  };
}

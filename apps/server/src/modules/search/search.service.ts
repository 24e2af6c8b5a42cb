import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  DEAL_RATINGS,
  DEFAULT_RADIUS_KM,
  type DealRating,
  SEARCH_PAGE_SIZE,
  type Facets,
  type SearchQuery,
  type SearchSort,
} from '@carmarket/shared';
import { queryRows, type Database, type Db } from '../../db/client.ts';
import { preparedShape } from '../../db/prepared.ts';
import { countUpTo, EXACT_COUNT_LIMIT, listingSample, samplePercent } from '../../db/estimates.ts';
import { listing, listingDeal, ON_SALE_SQL, user } from '../../db/schema.ts';
import { isStatementCancelled } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { ListingRow } from '../listings/listings.presenter.ts';
import { listingWithSeller } from '../listings/listings.service.ts';
import { placeById } from '../places/gazetteer.ts';
import { decodeKeysetCursor, isSortKey, keysetPage, type SortKeyType } from '../../lib/cursor.ts';
import { textQueryOf } from './spelling.ts';

/** Facets are counted exactly over at most this many rows; beyond, over a sample of about it. */
const FACET_SAMPLE_ROWS = 20_000;

export const YEAR_BUCKET_SPAN = 5;
/** Price bucket edges in minor units (dollars × 100): under 5,000, 5,000-9,999.99, … */
export const PRICE_EDGES = [
  0, 5_000_00, 10_000_00, 15_000_00, 20_000_00, 30_000_00, 50_000_00, 75_000_00, 100_000_00,
];

export interface Origin {
  lat: number;
  lng: number;
  radiusM: number;
}

/**
 * How a search's values enter its SQL: as parameters of a one-off statement (`inline`), or as
 * named placeholders of a statement built once per shape of search (`placeholders`,
 * db/prepared.ts `preparedShape`).
 */
type Bind = (name: string, value: unknown) => SQL;
const inline: Bind = (_name, value) => sql`${value}`;

/** A binder that keeps the values for a prepared statement; their names spell its shape. */
function placeholders() {
  const values: Record<string, unknown> = {};
  const bind: Bind = (name, value) => {
    values[name] = value;
    return sql`${sql.placeholder(name)}`;
  };
  return { bind, values };
}

/** How each sort orders rows: an expression, its SQL type for the cursor, and a direction. */
function sortSpec(
  sort: SearchSort,
  origin: Origin | null,
  textQuery: SQL | null,
  bind: Bind,
): { expr: SQL; type: SortKeyType; desc: boolean } {
  switch (sort) {
    case 'newest':
      return { expr: sql`${listing.createdAt}`, type: 'timestamptz', desc: true };
    case 'price_asc':
      return { expr: sql`${listing.repriceCents}`, type: 'bigint', desc: false };
    case 'price_desc':
      return { expr: sql`${listing.repriceCents}`, type: 'bigint', desc: true };
    case 'mileage_asc':
      return {
        expr: sql`coalesce(${listing.mileageKm}, 2147483647)`,
        type: 'integer',
        desc: false,
      };
    case 'year_desc':
      return { expr: sql`${listing.year}`, type: 'integer', desc: true };
    case 'deal':
      // Rated cars by rating, best first, then asking/fair (listing_deal.ratio holds that key,
      // decision 032); unrated ones follow, their key UNRATED_KEY
      // (dealPage reads the two in turn).
      return { expr: sql`${listingDeal.ratio}`, type: 'float8', desc: false };
    case 'distance':
      if (!origin)
        throw new AppError(400, 'validation-failed', 'Sorting by distance needs a place (near)', {
          field: 'sort',
        });
      return { expr: distanceOf(origin, bind), type: 'float8', desc: false };
    case 'relevance':
      if (!textQuery) return sortSpec('newest', origin, null, bind);
      return {
        expr: sql`ts_rank_cd(${listing.searchDoc}, ${textQuery})`,
        type: 'real',
        desc: true,
      };
  }
}

/** Mean Earth radius (IUGG), metres: what published city-to-city distances use. */
const EARTH_RADIUS_M = 6_371_008.8;
/** earthdistance's own sphere (earth() = 6,378,168 m), for sizing its index box. */
const EARTHDISTANCE_RADIUS_M = 6_378_168;

/** Great-circle (haversine) distance in metres between two points given in degrees. */
export const haversineM = (fromLat: SQL, fromLng: SQL, toLat: SQL, toLng: SQL) =>
  sql`(2 * ${EARTH_RADIUS_M}::float8 * asin(least(1, sqrt(
    power(sin(radians(${toLat} - ${fromLat}) / 2), 2)
    + cos(radians(${fromLat})) * cos(radians(${toLat}))
      * power(sin(radians(${toLng} - ${fromLng}) / 2), 2)))))`;

/** Great-circle distance in metres from the origin to a car. */
const distanceOf = (origin: Origin, bind: Bind) =>
  haversineM(
    sql`${bind('lat', origin.lat)}::float8`,
    sql`${bind('lng', origin.lng)}::float8`,
    sql`${listing.lat}`,
    sql`${listing.lng}`,
  );

/**
 * Cars within the radius: earthdistance's box (a cube the GiST index answers, sized on its own
 * sphere so it holds every car in range) first, then the exact distance.
 */
const withinRadius = (origin: Origin, bind: Bind) =>
  sql`earth_box(ll_to_earth(${bind('lat', origin.lat)}::float8, ${bind('lng', origin.lng)}::float8), ${bind('box', (origin.radiusM * EARTHDISTANCE_RADIUS_M) / EARTH_RADIUS_M)}::float8) @> ll_to_earth(${listing.lat}, ${listing.lng}) and ${listing.lat} is not null and ${distanceOf(origin, bind)} <= ${bind('radius', origin.radiusM)}::float8`;

export function originOf(query: SearchQuery): Origin | null {
  if (query.near === undefined) return null;
  const place = placeById(query.near);
  if (!place) {
    throw new AppError(400, 'validation-failed', 'That place is not in the list', {
      field: 'near',
    });
  }
  return {
    lat: place.lat,
    lng: place.lng,
    radiusM: (query.radiusKm ?? DEFAULT_RADIUS_KM) * 1000,
  };
}

const anyOf = (
  column: SQL,
  name: string,
  values: readonly string[] | undefined,
  bind: Bind,
): SQL | undefined =>
  values && values.length > 0
    ? sql`${column} in (${sql.join(
        values.map((value, i) => bind(`${name}${i}`, value)),
        sql`, `,
      )})`
    : undefined;

/**
 * Cars whose deal rating is one of `ratings`: a car without a rating matches none. Read from the
 * car (`listing.deal_rating`, kept by the price guide with listing_deal), so counts and facets
 * read it as they read the make, from `listing_onsale_filters_idx` or the sampled row, with no
 * lookup per car (decision 009's addendum).
 */
const dealIn = (ratings: readonly string[] | undefined, bind: Bind): SQL | undefined =>
  anyOf(sql`${listing.dealRating}`, 'deal', ratings, bind);

const all = (parts: (SQL | undefined)[]): SQL =>
  sql.join(parts.filter((part): part is SQL => part !== undefined).concat(sql`true`), sql` and `);

/**
 * The search's conditions in two groups: `base` (text, category, mileage, place; and always
 * "on sale"), and one per facet, so each facet can be counted under all the other filters.
 */
function conditionsOf(
  query: SearchQuery,
  origin: Origin | null,
  textQuery: SQL | null,
  bind: Bind,
) {
  const when = <T>(value: T | undefined, condition: (value: SQL) => SQL, name: string) =>
    value === undefined ? undefined : condition(bind(name, value));
  const base = [
    ON_SALE_SQL,
    textQuery ? sql`${listing.searchDoc} @@ ${textQuery}` : undefined,
    when(query.category, (id) => sql`${listing.categoryId} = ${id}`, 'category'),
    when(query.seller, (id) => sql`${listing.sellerId} = ${id}`, 'seller'),
    when(query.mileageMax, (max) => sql`${listing.mileageKm} <= ${max}`, 'mileageMax'),
    origin ? withinRadius(origin, bind) : undefined,
  ];
  const facet = {
    make: anyOf(sql`${listing.make}`, 'make', query.make, bind),
    model: anyOf(sql`${listing.model}`, 'model', query.model, bind),
    bodyType: anyOf(sql`${listing.bodyType}`, 'bodyType', query.bodyType, bind),
    fuel: anyOf(sql`${listing.fuel}`, 'fuel', query.fuel, bind),
    transmission: anyOf(sql`${listing.transmission}`, 'transmission', query.transmission, bind),
    condition: anyOf(sql`${listing.condition}`, 'condition', query.condition, bind),
    deal: dealIn(query.deal, bind),
    year: all([
      when(query.yearMin, (min) => sql`${listing.year} >= ${min}`, 'yearMin'),
      when(query.yearMax, (max) => sql`${listing.year} <= ${max}`, 'yearMax'),
    ]),
    price: all([
      when(query.priceMin, (min) => sql`${listing.repriceCents} >= ${min}`, 'priceMin'),
      when(query.priceMax, (max) => sql`${listing.repriceCents} <= ${max}`, 'priceMax'),
    ]),
  };
  return { base, facet };
}

/** A search's SQL pieces, its values bound by `bind`. */
function searchParts(query: SearchQuery, origin: Origin | null, bind: Bind) {
  const text = query.q ? textQueryOf(query.q) : null;
  const textQuery = text ? sql`to_tsquery('simple', ${bind('text', text)})` : null;
  const sort: SearchSort = query.sort ?? (textQuery ? 'relevance' : 'newest');
  const { base, facet } = conditionsOf(query, origin, textQuery, bind);
  return { textQuery, sort, base, facet, where: all([...base, ...Object.values(facet)]) };
}

export type SearchRow = ListingRow & { sortKey: string; distanceM: number | null };

export interface SearchOutcome {
  rows: SearchRow[];
  total: number;
  totalIsEstimate: boolean;
  nextCursor: string | null;
  facets?: Facets;
}

/** Values whose best plan is the same whichever they are: a category's newest cars, a page on. */
const PLAN_ONCE_VALUES = new Set(['category', 'seller', 'limit', 'cursorKey', 'cursorId']);

/**
 * Whether a search's statements may keep one plan for every value (db/prepared.ts): the newest
 * cars of any category, or of all, read one index (`listing_onsale_category_idx`,
 * `listing_onsale_newest_idx`) from the start or a cursor; what the category page asks. A
 * seller's newest cars (their profile) read `listing_onsale_seller_idx` likewise.
 */
function plannedOnce(sort: SearchSort, values: Record<string, unknown>): boolean {
  return sort === 'newest' && Object.keys(values).every((name) => PLAN_ONCE_VALUES.has(name));
}

/** One page of cars matching a search, its total, and the facet counts when asked for. */
export async function searchListings(db: Db, query: SearchQuery): Promise<SearchOutcome> {
  const origin = originOf(query);
  // The page and its count are statements built once per shape of search (which filters, how
  // many values each, which sort): only the values change from one search to the next. Most are
  // planned per run for their values; `plannedOnce` shapes keep one plan (decision 018).
  const statement = placeholders();
  const { textQuery, sort, where } = searchParts(query, origin, statement.bind);
  const spec = sortSpec(sort, origin, textQuery, statement.bind);
  const limit = query.limit ?? SEARCH_PAGE_SIZE;
  statement.bind('limit', limit + 1);

  let after: SQL | undefined;
  if (query.cursor && sort !== 'deal') {
    const cursor = decodeKeysetCursor(query.cursor, sort, spec.type);
    const key = sql`cast(${statement.bind('cursorKey', cursor.key)} as ${sql.raw(spec.type)})`;
    const id = sql`${statement.bind('cursorId', cursor.id)}::uuid`;
    after = spec.desc
      ? sql`(${spec.expr}, ${listing.id}) < (${key}, ${id})`
      : sql`(${spec.expr}, ${listing.id}) > (${key}, ${id})`;
  }
  const direction = spec.desc ? sql`desc` : sql`asc`;
  const shape = `${sort}:${Object.keys(statement.values).join(',')}`;
  const planOnce = plannedOnce(sort, statement.values);
  // The sample's size, asked of the planner's statistics at most once per search.
  let percent: Promise<number> | undefined;
  const sample = () => (percent ??= samplePercent(db, FACET_SAMPLE_ROWS));
  // Facets and sampled counts run once each, with their values inline.
  let inlinedParts: ReturnType<typeof searchParts> | undefined;
  const inlined = () => (inlinedParts ??= searchParts(query, origin, inline));

  // One statement after another: a search holds one connection (withinTimeLimit's transaction),
  // so one person's searches cannot take the pool from everyone else.
  const page =
    sort === 'deal'
      ? await dealPage(db, query, origin, limit)
      : await preparedShape(
          db,
          `search-page:${shape}`,
          () =>
            db
              .select({
                ...pageColumns(origin, statement.bind),
                sortKey: sql<string>`(${spec.expr})::text`,
              })
              .from(listing)
              .innerJoin(user, eq(user.id, listing.sellerId))
              .where(and(where, after))
              .orderBy(sql`${spec.expr} ${direction}`, sql`${listing.id} ${direction}`)
              .limit(sql.placeholder('limit') as unknown as number),
          { planOnce },
        ).execute(statement.values);
  const counted = await countMatches(
    db,
    { shape, planOnce, where, values: statement.values },
    inlined,
    sample,
  );
  const facets =
    query.facets === '1' || query.facets === 'true'
      ? await countFacets(db, inlined(), sample)
      : undefined;

  return {
    ...keysetPage(page as SearchRow[], limit, sort),
    ...counted,
    ...(facets && { facets }),
  };
}

/** What a search page reads of each car, beside its sort key. */
const pageColumns = (origin: Origin | null, bind: Bind) => ({
  ...listingWithSeller,
  distanceM: origin ? sql<number>`${distanceOf(origin, bind)}` : sql<null>`null::float8`,
});

/** The sort key `sort=deal` gives a car without a rating: after every ratio. */
const UNRATED_KEY = 'Infinity';

/**
 * A page of `sort=deal` (one row more than `limit`): rated cars by asking/fair price, lowest
 * first, reading listing_deal's (ratio, listing_id) index in order; when they run out, cars with
 * no rating by id. The cursor's key is the ratio, or UNRATED_KEY among the unrated, so pages
 * neither repeat nor skip across the change. Two statements, not one ordered by
 * `coalesce(ratio, infinity)` over a left join: no index serves that order, so every page would
 * sort every match (decision 032).
 */
async function dealPage(
  db: Db,
  query: SearchQuery,
  origin: Origin | null,
  limit: number,
): Promise<SearchRow[]> {
  const cursor = query.cursor
    ? decodeKeysetCursor(
        query.cursor,
        'deal',
        (key) => key === UNRATED_KEY || isSortKey('float8', key),
      )
    : null;
  const inUnrated = cursor?.key === UNRATED_KEY;
  const rows: SearchRow[] = [];
  if (!inUnrated) {
    const rated = placeholders();
    const { where } = searchParts(query, origin, rated.bind);
    const after =
      cursor &&
      sql`(${listingDeal.ratio}, ${listingDeal.listingId}) > (cast(${rated.bind('cursorKey', cursor.key)} as float8), ${rated.bind('cursorId', cursor.id)}::uuid)`;
    rated.bind('limit', limit + 1);
    const found = await preparedShape(
      db,
      `search-page:deal-rated:${Object.keys(rated.values).join(',')}`,
      () =>
        db
          .select({
            ...pageColumns(origin, rated.bind),
            sortKey: sql<string>`${listingDeal.ratio}::text`,
          })
          .from(listing)
          .innerJoin(listingDeal, eq(listingDeal.listingId, listing.id))
          .innerJoin(user, eq(user.id, listing.sellerId))
          .where(and(where, after ?? undefined))
          .orderBy(listingDeal.ratio, listingDeal.listingId)
          .limit(sql.placeholder('limit') as unknown as number),
    ).execute(rated.values);
    rows.push(...(found as SearchRow[]));
  }
  // A deal filter keeps rated cars only.
  if (rows.length > limit || (query.deal?.length ?? 0) > 0) return rows;
  const unrated = placeholders();
  const { where } = searchParts(query, origin, unrated.bind);
  const after = inUnrated && sql`${listing.id} > ${unrated.bind('cursorId', cursor.id)}::uuid`;
  unrated.bind('limit', limit + 1 - rows.length);
  const found = await preparedShape(
    db,
    `search-page:deal-unrated:${Object.keys(unrated.values).join(',')}`,
    () =>
      db
        .select({ ...pageColumns(origin, unrated.bind), sortKey: sql<string>`${UNRATED_KEY}` })
        .from(listing)
        .innerJoin(user, eq(user.id, listing.sellerId))
        .where(
          and(
            where,
            sql`not exists (select 1 from ${listingDeal} d where d.listing_id = ${listing.id})`,
            after || undefined,
          ),
        )
        .orderBy(listing.id)
        .limit(sql.placeholder('limit') as unknown as number),
  ).execute(unrated.values);
  return [...rows, ...(found as SearchRow[])];
}

/**
 * Runs a search (`work`, on the handle it is given) with each of its statements limited to `ms`
 * (SEARCH_TIMEOUT_MS); a search cut by it answers 503 with what to do, never a hang. Its
 * statements get no parallel workers: a person's few searches at once (the search budget) take
 * as many database processes, not three times as many. On PGlite neither applies (db/client.ts):
 * an embedded site serves one process's few people.
 */
export async function withinTimeLimit<T>(
  database: Pick<Database, 'withStatementLimits'>,
  ms: number,
  work: (db: Db) => Promise<T>,
): Promise<T> {
  try {
    return await database.withStatementLimits({ timeoutMs: ms, parallelWorkers: 0 }, work);
  } catch (error) {
    if (!isStatementCancelled(error)) throw error;
    throw new AppError(
      503,
      'unavailable',
      'This search took too long. Narrow it (a make, a price range or a place nearby) and try again.',
    );
  }
}

/** How many cars on sale match a search (exact up to EXACT_COUNT_LIMIT, as a search counts). */
export async function countSearch(
  db: Db,
  query: SearchQuery,
): Promise<{ total: number; totalIsEstimate: boolean }> {
  const origin = originOf(query);
  const statement = placeholders();
  const { sort, where } = searchParts(query, origin, statement.bind);
  return countMatches(
    db,
    {
      shape: `${sort}:${Object.keys(statement.values).join(',')}`,
      planOnce: plannedOnce(sort, statement.values),
      where,
      values: statement.values,
    },
    () => searchParts(query, origin, inline),
    () => samplePercent(db, FACET_SAMPLE_ROWS),
  );
}

/**
 * Exact up to EXACT_COUNT_LIMIT; above it, scaled from a block sample of the table. The sample
 * (a few milliseconds) goes first: only when it suggests few matches is the exact count (which
 * may have to read every match) worth its cost. Counting stops at the limit either way. The
 * exact count is prepared per shape of search; the sample, rarer, runs with its values inline.
 */
async function countMatches(
  db: Db,
  prepared: { shape: string; planOnce: boolean; where: SQL; values: Record<string, unknown> },
  inlined: () => { where: SQL },
  sample: () => Promise<number>,
) {
  const percent = await sample();
  let estimate = 0;
  if (percent < 100) {
    const [sampled] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${listingSample(percent)} where ${inlined().where}`,
    );
    estimate = Math.round(((sampled?.n ?? 0) * 100) / percent);
    if (estimate > 2 * EXACT_COUNT_LIMIT) return { total: estimate, totalIsEstimate: true };
  }
  const [counted] = await preparedShape(
    db,
    `search-count:${prepared.shape}`,
    () =>
      db.select({ n: sql<number>`count(*)::int` }).from(
        db
          .select({ one: sql`1` })
          .from(listing)
          .where(prepared.where)
          .limit(EXACT_COUNT_LIMIT + 1)
          .as('matches'),
      ),
    { planOnce: prepared.planOnce },
  ).execute(prepared.values);
  const exact = counted?.n ?? 0;
  if (exact <= EXACT_COUNT_LIMIT) return { total: exact, totalIsEstimate: false };
  return { total: Math.max(estimate, EXACT_COUNT_LIMIT + 1), totalIsEstimate: true };
}

type FacetName =
  'make' | 'model' | 'bodyType' | 'fuel' | 'transmission' | 'condition' | 'deal' | 'year' | 'price';

/**
 * Counts of each facet's values among cars matching every other filter. Exact when the cars the
 * base filters leave are few enough to read; otherwise from a block sample of the table, scaled.
 */
async function countFacets(
  db: Db,
  { base, facet }: { base: (SQL | undefined)[]; facet: Record<FacetName, SQL | undefined> },
  sample: () => Promise<number>,
): Promise<Facets> {
  const baseWhere = all(base);
  const estimated = (await countUpTo(db, baseWhere, FACET_SAMPLE_ROWS)) > FACET_SAMPLE_ROWS;
  const percent = estimated ? await sample() : 100;
  const source = listingSample(percent);
  const scale = 100 / percent;

  const flag = (name: FacetName) => facet[name] ?? sql`true`;
  const others = (name: FacetName) =>
    all(
      (Object.keys(facet) as FacetName[])
        .filter((n) => n !== name)
        .map((n) => sql`f_${sql.raw(n)}`),
    );
  const priceBucket = sql.raw(
    `case ${PRICE_EDGES.slice(1)
      .map((edge, i) => `when reprice_cents < ${edge} then ${i}`)
      .join(' ')} else ${PRICE_EDGES.length - 1} end`,
  );
  const group = (name: FacetName, value: SQL) =>
    sql`select ${name} as facet, (${value})::text as value, count(*)::int as n from matching where ${others(name)} group by 2`;

  const rows = await queryRows<{ facet: FacetName; value: string | null; n: number }>(
    db,
    sql`with matching as materialized (
      select make, model, body_type, fuel, transmission, condition, year, reprice_cents,
        deal_rating as deal,
        ${flag('make')} as f_make, ${flag('model')} as f_model, ${flag('bodyType')} as f_bodyType,
        ${flag('fuel')} as f_fuel, ${flag('transmission')} as f_transmission,
        ${flag('condition')} as f_condition, ${flag('deal')} as f_deal, ${flag('year')} as f_year, ${flag('price')} as f_price
      from ${source} where ${baseWhere}
    )
    ${group('make', sql`make`)}
    union all ${group('model', facet.make ? sql`model` : sql`null`)}
    union all ${group('bodyType', sql`body_type`)}
    union all ${group('fuel', sql`fuel`)}
    union all ${group('transmission', sql`transmission`)}
    union all ${group('condition', sql`condition`)}
    union all ${group('deal', sql`deal`)}
    union all ${group('year', sql`year / ${sql.raw(String(YEAR_BUCKET_SPAN))}`)}
    union all ${group('price', priceBucket)}`,
  );

  const count = (n: number) => (estimated ? Math.max(1, Math.round(n * scale)) : n);
  const values = (name: FacetName) =>
    rows
      .filter((row) => row.facet === name && row.value !== null)
      .map((row) => ({ value: row.value!, count: count(row.n) }))
      .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  const ranges = (name: 'year' | 'price') =>
    rows
      .filter((row) => row.facet === name && row.value !== null)
      .map((row) => {
        const bucket = Number(row.value);
        const [min, max] =
          name === 'year'
            ? [bucket * YEAR_BUCKET_SPAN, bucket * YEAR_BUCKET_SPAN + YEAR_BUCKET_SPAN - 1]
            : [
                PRICE_EDGES[bucket]!,
                bucket + 1 < PRICE_EDGES.length ? PRICE_EDGES[bucket + 1]! - 1 : null,
              ];
        return { min, max, count: count(row.n) };
      })
      .sort((a, b) => a.min - b.min);

  return {
    estimated,
    make: values('make'),
    model: values('model'),
    bodyType: values('bodyType'),
    fuel: values('fuel'),
    transmission: values('transmission'),
    condition: values('condition'),
    // Best first, as the filter lists them, not by count.
    deal: values('deal').sort(
      (a, b) =>
        DEAL_RATINGS.indexOf(a.value as DealRating) - DEAL_RATINGS.indexOf(b.value as DealRating),
    ),
    year: ranges('year'),
    price: ranges('price'),
  };
}

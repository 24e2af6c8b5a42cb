import { OTHER } from '@carmarket/shared';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { listing, user } from '../../db/schema.ts';
import type { ListingRow } from './listings.presenter.ts';
import { listingWithSeller } from './listings.service.ts';

/** Cars a car page offers beside it (issue 32). */
export const SIMILAR_CARS = 8;
/** Cars of the same make and model weighed for nearness: the newest on sale. */
const SAME_MODEL_CANDIDATES = 24;
/** Cars of the same body type taken on each side of the car's price. */
const SAME_BODY_EACH_SIDE = 16;
/**
 * Cars on sale read on each side of the price at most while looking for the same body type: a
 * body type that few cars have (or none) costs this many rows, not the whole price index.
 */
const PRICE_WALK = 1000;

/*
 * How far a car is from the one shown: price as a ratio (a tenth dearer weighs as a tenth cheaper)
 * plus a tenth a model year, about what a year takes off a used car's price.
 */
const distance = sql`abs(ln(greatest(reprice_cents, 1)::float8 / greatest(${sql.placeholder('price')}::bigint, 1)))
  + abs(year - ${sql.placeholder('year')}::int) * 0.1`;

/** The same body type; for a car without one, the same category (a seller need not give one). */
const sameKind = sql`case when ${sql.placeholder('bodyType')} = ''
  then category_id = ${sql.placeholder('categoryId')}::uuid
  else body_type = ${sql.placeholder('bodyType')} end`;

/**
 * Each step reads an index in order and stops at its LIMIT, so no step sorts a whole make or
 * body type (p95 under 20 ms at 1M cars, bench:search):
 * - the same make and model: the newest on sale, listing_onsale_make_idx read backwards;
 * - the same body type (another model; the same category for a car without a body type), in the
 *   same currency: the price index walked up and down from the car's price, at most PRICE_WALK
 *   cars each way.
 * The candidates are then ranked, the same model first, each step by nearness in price and year.
 */
const candidates = sql`
  select id from (
    (select id, 0 as step, ${distance} as distance from listing
      where status in ('available', 'reserved') and make = ${sql.placeholder('make')}
        and model = ${sql.placeholder('model')} and id <> ${sql.placeholder('id')}::uuid
      order by created_at desc, id desc limit ${SAME_MODEL_CANDIDATES})
    union all
    (select id, 1, ${distance} from (
        select id, make, model, body_type, category_id, currency, year, reprice_cents from listing
        where status in ('available', 'reserved') and reprice_cents >= ${sql.placeholder('price')}::bigint
        order by reprice_cents, id limit ${PRICE_WALK}) as dearer
      where ${sameKind} and currency = ${sql.placeholder('currency')}
        and id <> ${sql.placeholder('id')}::uuid
        and (make, model) <> (${sql.placeholder('make')}, ${sql.placeholder('model')})
      limit ${SAME_BODY_EACH_SIDE})
    union all
    (select id, 1, ${distance} from (
        select id, make, model, body_type, category_id, currency, year, reprice_cents from listing
        where status in ('available', 'reserved') and reprice_cents < ${sql.placeholder('price')}::bigint
        order by reprice_cents desc, id desc limit ${PRICE_WALK}) as cheaper
      where ${sameKind} and currency = ${sql.placeholder('currency')}
        and id <> ${sql.placeholder('id')}::uuid
        and (make, model) <> (${sql.placeholder('make')}, ${sql.placeholder('model')})
      limit ${SAME_BODY_EACH_SIDE})
  ) as found
  order by step, distance, id
  limit ${SIMILAR_CARS}`;

const similarCars = prepared('similar_cars', (db) =>
  db
    .select(listingWithSeller)
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .where(sql`${listing.id} in (${candidates})`)
    .orderBy(
      sql`(${listing.make} = ${sql.placeholder('make')} and ${listing.model} = ${sql.placeholder('model')}) desc`,
      sql`abs(ln(greatest(${listing.repriceCents}, 1)::float8 / greatest(${sql.placeholder('price')}::bigint, 1)))
        + abs(${listing.year} - ${sql.placeholder('year')}::int) * 0.1`,
      asc(listing.id),
    ),
);

/**
 * Up to SIMILAR_CARS cars on sale like `car`, never itself: the same make and model first, then
 * the same body type near its price and year. A car of a model the site does not know ("Other")
 * has no model to share; one without a body type is matched by its category instead.
 */
export async function findSimilarCars(
  db: Db,
  car: Pick<
    ListingRow,
    'id' | 'make' | 'model' | 'bodyType' | 'categoryId' | 'repriceCents' | 'year' | 'currency'
  >,
): Promise<ListingRow[]> {
  const rows = await similarCars(db, {
    id: car.id,
    // No car on sale is of a make and model of '' (the form requires both).
    make: car.model === OTHER ? '' : car.make,
    model: car.model === OTHER ? '' : car.model,
    bodyType: car.bodyType ?? '',
    categoryId: car.categoryId,
    currency: car.currency,
    price: car.repriceCents,
    year: car.year,
  });
  return rows as ListingRow[];
}

import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  inferMakeModel,
  isKnownModel,
  OTHER,
  type CreateListingInput,
  type UpdateListingInput,
} from '@carmarket/shared';
import type { Db, Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { booking, category, listing, savedCar, user } from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import type { DomainEvents } from '../../lib/events.ts';
import { authorize } from '../../lib/policy.ts';
import { formatWait, orGiveBack, spend, type CounterStore } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { Storage } from '../../adapters/storage.ts';
import { placeById } from '../places/gazetteer.ts';
import { resolveOwnUploads } from '../uploads/uploads.service.ts';
import { lockCar, notifyClosed, relistCar, withdrawCar } from './lifecycle.ts';
import { listingPolicy } from './listings.policy.ts';
import { decodeKeysetCursor, keysetPage } from '../../lib/cursor.ts';
import { listingWithSeller } from './listings.service.ts';

/** Creates a car for a seller in the named category. */
export async function createListing(
  db: Db,
  events: DomainEvents,
  storage: Storage,
  actor: SessionUser,
  categoryName: string,
  input: CreateListingInput,
  currency: string,
): Promise<{ id: string }> {
  const [found] = await db
    .select({ id: category.id })
    .from(category)
    .where(eq(category.name, categoryName));
  if (!found)
    throw new AppError(400, 'validation-failed', 'Category is required', { field: 'category' });
  const images = await resolveOwnUploads(db, storage, actor.id, input.images ?? [input.img!]);
  // A client of the first spec sends no make or model: take them from the car's name.
  const { make, model } =
    input.make !== undefined && input.model !== undefined
      ? { make: input.make, model: input.model }
      : inferMakeModel(input.name);
  const values = {
    categoryId: found.id,
    sellerId: actor.id,
    sellerName: input.seller?.trim() || actor.name,
    name: input.name,
    description: input.describe,
    condition: input.condition,
    location: input.location,
    year: input.year,
    mileageKm: input.mileageKm ?? null,
    make,
    model,
    bodyType: input.bodyType ?? null,
    fuel: input.fuel ?? null,
    transmission: input.transmission ?? null,
    colour: input.colour ?? null,
    vin: input.vin ?? null,
    ...placeOf(input.placeId),
    repriceCents: input.reprice,
    orpriceCents: input.orprice,
    currency,
    images,
  };
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(listing).values(values).returning({ id: listing.id });
    await events.publish(tx, 'car.listed', { carId: row!.id });
    return { id: row!.id };
  });
}

/** The coordinates of a place picked from the list (never the client's); none for typed text. */
function placeOf(placeId: number | null | undefined) {
  if (placeId === undefined) return {};
  if (placeId === null) return { placeId: null, lat: null, lng: null };
  const place = placeById(placeId);
  if (!place) {
    throw new AppError(400, 'validation-failed', 'Pick a place from the list', {
      field: 'placeId',
    });
  }
  return { placeId: place.id, lat: place.lat, lng: place.lng };
}

const counts = {
  bookingsCount: sql<number>`(select count(*)::int from ${booking} where ${booking.listingId} = ${listing.id})`,
  openBookingsCount: sql<number>`(select count(*)::int from ${booking} where ${booking.listingId} = ${listing.id} and ${booking.status} = 'pending')`,
  sold: sql<boolean>`exists (select 1 from ${booking} where ${booking.listingId} = ${listing.id} and ${booking.status} = 'paid')`,
  savedCount: sql<number>`(select count(*)::int from ${savedCar} where ${savedCar.listingId} = ${listing.id})`,
};

/**
 * A seller's cars, newest first, with their bookings. Removed cars are left out of the seller's
 * own list; an admin looking at a person's cars sees them too (`withRemoved`).
 */
export async function listingsOfSeller(db: Db, sellerId: string, { withRemoved = false } = {}) {
  return (withRemoved ? allCarsOfSeller : carsOfSeller)(db, { sellerId });
}

/** The cars a seller sees as theirs: not those an admin removed. */
const SELLERS_OWN = ['available', 'reserved', 'sold', 'withdrawn'] as const;

const ofSeller = (withRemoved: boolean) =>
  and(
    eq(listing.sellerId, sql.placeholder('sellerId')),
    withRemoved ? undefined : inArray(listing.status, [...SELLERS_OWN]),
  );

/** Before the cursor's car in the list's order (newest first, then by id). */
const afterCursor = sql`(${listing.createdAt}, ${listing.id}) < (cast(${sql.placeholder('cursorKey')} as timestamptz), cast(${sql.placeholder('cursorId')} as uuid))`;

const selectCarsOfSeller = (db: Db, withRemoved: boolean, { from = false } = {}) =>
  db
    .select({
      ...listingWithSeller,
      categoryName: category.name,
      ...counts,
      sortKey: sql<string>`${listing.createdAt}::text`,
    })
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .innerJoin(category, eq(category.id, listing.categoryId))
    .where(and(ofSeller(withRemoved), from ? afterCursor : undefined))
    .orderBy(desc(listing.createdAt), desc(listing.id));
const carsOfSeller = prepared('cars_of_seller', (db) => selectCarsOfSeller(db, false));
const allCarsOfSeller = prepared('all_cars_of_seller', (db) => selectCarsOfSeller(db, true));
const firstCarsOfSeller = prepared('first_cars_of_seller', (db) =>
  selectCarsOfSeller(db, false).limit(sql.placeholder('limit') as unknown as number),
);
const moreCarsOfSeller = prepared('more_cars_of_seller', (db) =>
  selectCarsOfSeller(db, false, { from: true }).limit(
    sql.placeholder('limit') as unknown as number,
  ),
);
const countCarsOfSeller = prepared('count_cars_of_seller', (db) =>
  db
    .select({ total: sql<number>`count(*)::int` })
    .from(listing)
    .where(ofSeller(false)),
);

/** The order My Products' cursors page in (the search's cursors name theirs). */
const SELLER_CARS_ORDER = 'seller-newest';

/**
 * A page of a seller's own cars (My Products a page at a time), how many they have, and where the
 * next page starts: a seller with hundreds of cars is not sent all of them at once.
 */
export async function pageOfSellerCars(
  db: Db,
  sellerId: string,
  page: { limit: number; cursor?: string | undefined },
) {
  const after = page.cursor ? decodeKeysetCursor(page.cursor, SELLER_CARS_ORDER) : undefined;
  const values = { sellerId, limit: page.limit + 1 };
  const [rows, [counted]] = await Promise.all([
    after
      ? moreCarsOfSeller(db, { ...values, cursorKey: after.key, cursorId: after.id })
      : firstCarsOfSeller(db, values),
    countCarsOfSeller(db, { sellerId }),
  ]);
  return { ...keysetPage(rows, page.limit, SELLER_CARS_ORDER), total: counted?.total ?? 0 };
}

async function ownListing(db: Db | Tx, actor: SessionUser, id: string) {
  const [row] = await db.select().from(listing).where(eq(listing.id, id));
  if (!row) throw notFound('That car');
  authorize(listingPolicy.canView(actor, row));
  authorize(listingPolicy.canManage(actor, row));
  return row;
}

export async function updateListing(
  db: Db,
  events: DomainEvents,
  storage: Storage,
  actor: SessionUser,
  id: string,
  input: UpdateListingInput,
): Promise<void> {
  const row = await ownListing(db, actor, id);
  const editable = (status: string) => status === 'available' || status === 'withdrawn';
  if (!editable(row.status)) throw conflict(`A ${row.status} car can no longer be edited.`);
  const photos = input.images ?? (input.img ? [input.img] : undefined);
  const images = photos ? await resolveOwnUploads(db, storage, actor.id, photos) : undefined;
  const make = input.make ?? row.make;
  const model =
    input.model ?? (input.make !== undefined && input.make !== row.make ? OTHER : row.model);
  if (!isKnownModel(make, model)) {
    throw new AppError(
      400,
      'validation-failed',
      `Choose a ${make} model from the list, or ${OTHER}`,
      {
        field: 'model',
      },
    );
  }
  await db.transaction(async (tx) => {
    // Checked again under the car's lock: a buyer may have started paying meanwhile, and the
    // price a drop is measured from must be the one this edit replaces.
    const car = await lockCar(tx, id);
    if (!car || !editable(car.status)) {
      throw conflict(`A ${car?.status ?? 'removed'} car can no longer be edited.`);
    }
    await tx
      .update(listing)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.describe !== undefined && { description: input.describe }),
        ...(input.condition !== undefined && { condition: input.condition }),
        ...(input.location !== undefined && { location: input.location }),
        ...(input.year !== undefined && { year: input.year }),
        ...(input.mileageKm !== undefined && { mileageKm: input.mileageKm }),
        make,
        model,
        ...(input.bodyType !== undefined && { bodyType: input.bodyType }),
        ...(input.fuel !== undefined && { fuel: input.fuel }),
        ...(input.transmission !== undefined && { transmission: input.transmission }),
        ...(input.colour !== undefined && { colour: input.colour }),
        ...(input.vin !== undefined && { vin: input.vin }),
        ...placeOf(input.placeId),
        ...(input.reprice !== undefined && { repriceCents: input.reprice }),
        ...(input.orprice !== undefined && { orpriceCents: input.orprice }),
        ...(input.seller !== undefined && { sellerName: input.seller.trim() || actor.name }),
        ...(images && { images }),
      })
      .where(eq(listing.id, id));
    if (input.reprice !== undefined) {
      await events.publish(tx, 'car.repriced', {
        carId: id,
        oldPriceCents: car.repriceCents,
        newPriceCents: input.reprice,
      });
    }
  });
}

/**
 * Takes an available car off the market: it stops being advertised, its open bookings close and
 * their buyers are told.
 */
export async function withdrawListing(
  db: Db,
  mailer: Mailer,
  actor: SessionUser,
  id: string,
): Promise<void> {
  const row = await ownListing(db, actor, id);
  const closed = await db.transaction(async (tx) => {
    const closedBookings = await withdrawCar(tx, id);
    if (!closedBookings)
      throw conflict(`Only an available car can be withdrawn; this one is ${row.status}.`);
    return closedBookings;
  });
  await notifyClosed(mailer, row.name, closed, 'withdrawn');
}

/** How many cars one seller may put back on sale a day (RELIST_LIMIT_PER_DAY). */
export interface RelistLimit {
  counters: CounterStore;
  perDay: number;
}

const DAY_MS = 86_400_000;

/**
 * Puts a withdrawn car back on sale, as it was: its photos, price and bookings' history stay, and
 * the buyers who saved it still have it saved (they are told it is back: the `car.relisted`
 * event). Each return can mail them, so a seller has a daily number of them; a call refused
 * (someone else's car, one on sale) does not count. The rules are asked under the car's lock, so
 * a second click meets it on sale.
 */
export async function relistListing(
  db: Db,
  events: DomainEvents,
  limit: RelistLimit,
  actor: SessionUser,
  id: string,
): Promise<void> {
  const giveBack = await spend(
    limit.counters,
    [
      {
        key: `relist:${actor.id}`,
        max: limit.perDay,
        windowMs: DAY_MS,
        message: (seconds) =>
          `You can put ${limit.perDay} cars back on sale a day. Try again in ${formatWait(seconds)}.`,
      },
    ],
    { unavailable: 'Putting cars back on sale is unavailable for a moment.' },
  );
  await orGiveBack(giveBack, () =>
    db.transaction(async (tx) => {
      const car = await lockCar(tx, id);
      if (!car) throw notFound('That car');
      authorize(listingPolicy.canView(actor, car));
      authorize(listingPolicy.canManage(actor, car));
      authorize(listingPolicy.canRelist(car));
      // Cannot miss under the lock; the lifecycle's own condition stays the last word.
      if (!(await relistCar(tx, events, id))) throw conflict('This car is on sale already.');
    }),
  );
}

/** Puts an available car in the home page's Advertised section, or takes it out. */
export async function setAdvertised(
  db: Db,
  actor: SessionUser,
  id: string,
  advertised: boolean,
): Promise<void> {
  const row = await ownListing(db, actor, id);
  if (advertised && row.status !== 'available')
    throw conflict(`Only an available car can be advertised; this one is ${row.status}.`);
  await db
    .update(listing)
    .set({ advertisedAt: advertised ? (row.advertisedAt ?? new Date()) : null })
    .where(eq(listing.id, id));
}

import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  inferMakeModel,
  isKnownModel,
  MY_LISTING_STATUSES,
  OTHER,
  SEARCH_PAGE_SIZE,
  type MyListingCounts,
  type MyListingSort,
  type MyListingStatus,
  type CreateListingInput,
  type UpdateListingInput,
} from '@carmarket/shared';
import type { Db, Tx } from '../../db/client.ts';
import { prepared, preparedShape } from '../../db/prepared.ts';
import {
  booking,
  carViewDay,
  category,
  conversation,
  listing,
  savedCar,
  user,
} from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { statsFirstDay, statsSince } from '../../lib/stats-window.ts';
import { EDITED_CAR_FIELDS, type DomainEvents } from '../../lib/events.ts';
import { authorize } from '../../lib/policy.ts';
import { formatWait, orGiveBack, spend, type CounterStore } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { Storage } from '../../adapters/storage.ts';
import { placeById } from '../places/gazetteer.ts';
import { resolveOwnUploads } from '../uploads/uploads.service.ts';
import { liveHoldWhere, lockCar, notifyClosed, relistCar, withdrawCar } from './lifecycle.ts';
import { listingPolicy } from './listings.policy.ts';
import { recordPrice, recordRepricing } from './price-history.ts';
import { decodeKeysetCursor, keysetPage, type SortKeyType } from '../../lib/cursor.ts';
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
    await recordPrice(tx, row!.id, values.repriceCents);
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

/** Views of the car over the stats' 30 days (decision 027): My cars' column and its sort. */
const viewsInWindow = sql<number>`(select coalesce(sum(${carViewDay.views}), 0)::int from ${carViewDay} where ${carViewDay.listingId} = ${listing.id} and ${carViewDay.day} >= ${statsFirstDay})`;

/** What the car drew over the stats' 30 days, as its stats page counts it (CarStatsSchema). */
const drew = {
  views: viewsInWindow,
  saves: sql<number>`(select count(*)::int from ${savedCar} where ${savedCar.listingId} = ${listing.id} and ${savedCar.createdAt} >= ${statsSince})`,
  conversations: sql<number>`(select count(*)::int from ${conversation} where ${conversation.listingId} = ${listing.id} and ${conversation.createdAt} >= ${statsSince})`,
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

const selectCarsOfSeller = (db: Db, withRemoved: boolean) =>
  db
    .select({
      ...listingWithSeller,
      categoryName: category.name,
      ...counts,
      ...drew,
    })
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .innerJoin(category, eq(category.id, listing.categoryId))
    .where(ofSeller(withRemoved))
    .orderBy(desc(listing.createdAt), desc(listing.id));
const carsOfSeller = prepared('cars_of_seller', (db) => selectCarsOfSeller(db, false));
const allCarsOfSeller = prepared('all_cars_of_seller', (db) => selectCarsOfSeller(db, true));

/**
 * How My cars can be ordered: each sort's key, its SQL type (to read a cursor's key back) and
 * direction; ties go by id in the same direction, so a page boundary among equal keys loses and
 * repeats no car. A cursor names its sort (`seller-<sort>`): one of another order is refused.
 * A new order is one entry here and its name in MY_LISTING_SORTS (packages/shared).
 */
const SELLER_SORTS: Record<MyListingSort, { expr: SQL; type: SortKeyType; desc: boolean }> = {
  newest: { expr: sql`${listing.createdAt}`, type: 'timestamptz', desc: true },
  oldest: { expr: sql`${listing.createdAt}`, type: 'timestamptz', desc: false },
  price_asc: { expr: sql`${listing.repriceCents}`, type: 'bigint', desc: false },
  price_desc: { expr: sql`${listing.repriceCents}`, type: 'bigint', desc: true },
  views: { expr: viewsInWindow, type: 'integer', desc: true },
};

/** The name a sort's cursors carry (`seller-newest` is the one My cars always gave). */
const cursorSortOf = (sort: MyListingSort) => `seller-${sort}`;

/**
 * Which cars each state the seller sees holds, as presentMyListing shows them: `reserved` only
 * while the hold is live; a lapsed hold not yet swept is on sale (lifecycle.ts, liveHold).
 */
const SELLER_STATUS_WHERE: Record<MyListingStatus, SQL> = {
  available: sql`(${listing.status} = 'available' or (${listing.status} = 'reserved' and not coalesce(${listing.holdExpiresAt} > now(), false)))`,
  reserved: liveHoldWhere(sql`now()`),
  sold: sql`${listing.status} = 'sold'`,
  withdrawn: sql`${listing.status} = 'withdrawn'`,
};

/** A `like` pattern that finds `text` anywhere, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The seller's cars whose name, make, model or VIN holds the search (any case). */
const matchesSearch = (pattern: SQL) =>
  sql`(${listing.name} ilike ${pattern} or ${listing.make} ilike ${pattern} or ${listing.model} ilike ${pattern} or coalesce(${listing.vin}, '') ilike ${pattern})`;

export interface SellerCarsQuery {
  status?: MyListingStatus[] | undefined;
  q?: string | undefined;
  sort?: MyListingSort | undefined;
  /** A page of this many; without it (and a cursor) every car that matches. */
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** The filters of a query as SQL with placeholders, and the words of its shape. */
function sellerFilters(query: Pick<SellerCarsQuery, 'status' | 'q'>) {
  const statuses = MY_LISTING_STATUSES.filter((status) => query.status?.includes(status));
  const searched = query.q || undefined;
  const where = and(
    ofSeller(false),
    statuses.length > 0 ? or(...statuses.map((status) => SELLER_STATUS_WHERE[status])) : undefined,
    searched ? matchesSearch(sql`${sql.placeholder('pattern')}`) : undefined,
  );
  return {
    where,
    shape: `${statuses.join('+') || 'all'}:${searched ? 'q' : ''}`,
    values: searched ? { pattern: containing(searched) } : {},
  };
}

/**
 * The seller's own cars (My cars): in the states asked for, searched by name, make, model or VIN,
 * in the order asked for; a page of them with how many match and where the next page starts, or
 * all of them without `limit` and `cursor`. A dealer with hundreds of cars is not sent them all.
 */
export async function pageOfSellerCars(db: Db, sellerId: string, query: SellerCarsQuery) {
  const sort = query.sort ?? 'newest';
  const spec = SELLER_SORTS[sort];
  const cursorSort = cursorSortOf(sort);
  const filters = sellerFilters(query);
  const paged = query.limit !== undefined || query.cursor !== undefined;
  const limit = query.limit ?? SEARCH_PAGE_SIZE;
  const after = query.cursor ? decodeKeysetCursor(query.cursor, cursorSort, spec.type) : undefined;
  const values: Record<string, unknown> = { ...filters.values, sellerId };
  if (paged) values.limit = limit + 1;
  if (after) Object.assign(values, { cursorKey: after.key, cursorId: after.id });

  const direction = spec.desc ? sql`desc` : sql`asc`;
  const key = sql`cast(${sql.placeholder('cursorKey')} as ${sql.raw(spec.type)})`;
  const id = sql`cast(${sql.placeholder('cursorId')} as uuid)`;
  const afterCursor = spec.desc
    ? sql`(${spec.expr}, ${listing.id}) < (${key}, ${id})`
    : sql`(${spec.expr}, ${listing.id}) > (${key}, ${id})`;
  const shape = `seller-cars:${sort}:${filters.shape}:${paged ? 'page' : 'all'}:${after ? 'after' : ''}`;
  const rows = await preparedShape(
    db,
    shape,
    () => {
      const select = db
        .select({
          ...listingWithSeller,
          categoryName: category.name,
          ...counts,
          ...drew,
          sortKey: sql<string>`(${spec.expr})::text`,
        })
        .from(listing)
        .innerJoin(user, eq(user.id, listing.sellerId))
        .innerJoin(category, eq(category.id, listing.categoryId))
        .where(and(filters.where, after ? afterCursor : undefined))
        .orderBy(sql`${spec.expr} ${direction}`, sql`${listing.id} ${direction}`);
      return paged ? select.limit(sql.placeholder('limit') as unknown as number) : select;
    },
    { planOnce: true },
  ).execute(values);
  if (!paged) return { rows, total: rows.length, nextCursor: null };
  const [counted] = await preparedShape(
    db,
    `seller-cars-count:${filters.shape}`,
    () =>
      db
        .select({ total: sql<number>`count(*)::int` })
        .from(listing)
        .where(filters.where),
    { planOnce: true },
  ).execute({ ...filters.values, sellerId });
  return { ...keysetPage(rows, limit, cursorSort), total: counted?.total ?? 0 };
}

/** How many of the seller's cars (matching the search, if any) are in each state: My cars' tabs. */
export async function countSellerCars(
  db: Db,
  sellerId: string,
  query: Pick<SellerCarsQuery, 'q'>,
): Promise<MyListingCounts> {
  const filters = sellerFilters({ q: query.q });
  const countOf = (status: MyListingStatus) =>
    sql<number>`(count(*) filter (where ${SELLER_STATUS_WHERE[status]}))::int`;
  const [counted] = await preparedShape(
    db,
    `seller-cars-counts:${filters.shape}`,
    () =>
      db
        .select({
          all: sql<number>`count(*)::int`,
          available: countOf('available'),
          reserved: countOf('reserved'),
          sold: countOf('sold'),
          withdrawn: countOf('withdrawn'),
        })
        .from(listing)
        .where(filters.where),
    { planOnce: true },
  ).execute({ ...filters.values, sellerId });
  return counted ?? { all: 0, available: 0, reserved: 0, sold: 0, withdrawn: 0 };
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
    const edited = {
      ...(input.year !== undefined && { year: input.year }),
      ...(input.mileageKm !== undefined && { mileageKm: input.mileageKm }),
      make,
      model,
      ...(input.bodyType !== undefined && { bodyType: input.bodyType }),
      ...(input.fuel !== undefined && { fuel: input.fuel }),
      ...(input.transmission !== undefined && { transmission: input.transmission }),
      ...(input.vin !== undefined && { vin: input.vin }),
    };
    await tx
      .update(listing)
      .set({
        ...edited,
        ...(input.name !== undefined && { name: input.name }),
        ...(input.describe !== undefined && { description: input.describe }),
        ...(input.condition !== undefined && { condition: input.condition }),
        ...(input.location !== undefined && { location: input.location }),
        ...(input.colour !== undefined && { colour: input.colour }),
        ...placeOf(input.placeId),
        ...(input.reprice !== undefined && { repriceCents: input.reprice }),
        ...(input.orprice !== undefined && { orpriceCents: input.orprice }),
        ...(input.seller !== undefined && { sellerName: input.seller.trim() || actor.name }),
        ...(images && { images }),
      })
      .where(eq(listing.id, id));
    const changed = EDITED_CAR_FIELDS.filter(
      (field) => field in edited && edited[field] !== car[field],
    );
    if (changed.length > 0) await events.publish(tx, 'car.edited', { carId: id, changed });
    if (input.reprice !== undefined) {
      await recordRepricing(tx, id, car.repriceCents, input.reprice);
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

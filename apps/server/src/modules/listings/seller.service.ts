import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { CreateListingInput, UpdateListingInput } from '@carmarket/shared';
import type { Db, Tx } from '../../db/client.ts';
import { booking, category, listing, user } from '../../db/schema.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { Mailer } from '../../plugins/mail.ts';
import type { Storage } from '../../plugins/storage.ts';
import { audit } from '../../lib/audit.ts';
import { resolveOwnUploads } from '../uploads/uploads.service.ts';
import { listingPolicy } from './listings.policy.ts';
import { listingWithSeller } from './listings.service.ts';

/** Creates a car for a seller in the named category. */
export async function createListing(
  db: Db,
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
  const images = await resolveOwnUploads(db, storage, actor.id, input.images);
  const [row] = await db
    .insert(listing)
    .values({
      categoryId: found.id,
      sellerId: actor.id,
      sellerName: input.seller?.trim() || actor.name,
      name: input.name,
      description: input.describe,
      condition: input.condition,
      location: input.location,
      year: input.year,
      mileageKm: input.mileageKm ?? null,
      repriceCents: input.reprice,
      orpriceCents: input.orprice,
      currency,
      images,
    })
    .returning({ id: listing.id });
  return { id: row!.id };
}

const counts = {
  bookingsCount: sql<number>`(select count(*)::int from ${booking} where ${booking.listingId} = ${listing.id})`,
  openBookingsCount: sql<number>`(select count(*)::int from ${booking} where ${booking.listingId} = ${listing.id} and ${booking.status} = 'pending')`,
  sold: sql<boolean>`exists (select 1 from ${booking} where ${booking.listingId} = ${listing.id} and ${booking.status} = 'paid')`,
};

/** A seller's own cars, newest first, with their bookings. */
export async function listingsOfSeller(db: Db, sellerId: string) {
  return db
    .select({
      ...listingWithSeller,
      categoryName: category.name,
      ...counts,
    })
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .innerJoin(category, eq(category.id, listing.categoryId))
    .where(
      and(
        eq(listing.sellerId, sellerId),
        inArray(listing.status, ['available', 'reserved', 'sold', 'withdrawn']),
      ),
    )
    .orderBy(desc(listing.createdAt));
}

async function ownListing(db: Db | Tx, actor: SessionUser, id: string) {
  const [row] = await db.select().from(listing).where(eq(listing.id, id));
  if (!row || !listingPolicy.canView(actor, row)) throw notFound('That car');
  if (!listingPolicy.canManage(actor, row)) throw forbidden('Only the seller can change this car.');
  return row;
}

export async function updateListing(
  db: Db,
  storage: Storage,
  actor: SessionUser,
  id: string,
  input: UpdateListingInput,
): Promise<void> {
  const row = await ownListing(db, actor, id);
  if (row.status !== 'available' && row.status !== 'withdrawn') {
    throw conflict(`A ${row.status} car can no longer be edited.`);
  }
  const images = input.images
    ? await resolveOwnUploads(db, storage, actor.id, input.images)
    : undefined;
  await db
    .update(listing)
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.describe !== undefined && { description: input.describe }),
      ...(input.condition !== undefined && { condition: input.condition }),
      ...(input.location !== undefined && { location: input.location }),
      ...(input.year !== undefined && { year: input.year }),
      ...(input.mileageKm !== undefined && { mileageKm: input.mileageKm }),
      ...(input.reprice !== undefined && { repriceCents: input.reprice }),
      ...(input.orprice !== undefined && { orpriceCents: input.orprice }),
      ...(input.seller !== undefined && { sellerName: input.seller.trim() || actor.name }),
      ...(images && { images }),
    })
    .where(eq(listing.id, id));
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
    const [updated] = await tx
      .update(listing)
      .set({ status: 'withdrawn', advertisedAt: null })
      .where(and(eq(listing.id, id), eq(listing.status, 'available')))
      .returning({ id: listing.id });
    if (!updated)
      throw conflict(`Only an available car can be withdrawn; this one is ${row.status}.`);
    return closeOpenBookings(tx, id);
  });
  await notifyClosed(mailer, row.name, closed, 'the seller withdrew it');
}

/** Closes a car's pending bookings and answers who held them. */
export async function closeOpenBookings(tx: Db | Tx, listingId: string) {
  return tx
    .update(booking)
    .set({ status: 'closed' })
    .where(and(eq(booking.listingId, listingId), eq(booking.status, 'pending')))
    .returning({ buyerEmail: booking.buyerEmail, buyerName: booking.buyerName });
}

/** Frees the cars that these bookings hold at checkout, so other buyers can book and pay. */
export async function releaseHolds(tx: Db | Tx, bookingIds: string[]): Promise<void> {
  if (bookingIds.length === 0) return;
  await tx
    .update(listing)
    .set({ status: 'available', holdBookingId: null, holdExpiresAt: null })
    .where(and(eq(listing.status, 'reserved'), inArray(listing.holdBookingId, bookingIds)));
}

export async function notifyClosed(
  mailer: Mailer,
  carName: string,
  closed: Array<{ buyerEmail: string; buyerName: string }>,
  why: string,
): Promise<void> {
  await Promise.allSettled(
    closed.map((b) =>
      mailer.send({
        to: b.buyerEmail,
        subject: `${carName} is no longer available`,
        text: `Hello ${b.buyerName},\n\nYour booking of the ${carName} has been closed because ${why}. Nothing was charged. Other cars are waiting for you on CarMarket.`,
      }),
    ),
  );
}

/**
 * An admin takes any car that is not sold off the site; its open bookings close and their buyers
 * are told. Recorded in the audit log.
 */
export async function removeListing(
  db: Db,
  mailer: Mailer,
  actor: SessionUser,
  id: string,
): Promise<void> {
  const outcome = await db.transaction(async (tx) => {
    const [car] = await tx.select().from(listing).where(eq(listing.id, id)).for('update');
    if (!car) throw notFound('That car');
    if (car.status === 'sold') throw conflict('A sold car stays on record and cannot be removed.');
    if (car.status === 'removed') return null;
    await tx
      .update(listing)
      .set({ status: 'removed', advertisedAt: null, holdBookingId: null, holdExpiresAt: null })
      .where(eq(listing.id, id));
    const closed = await closeOpenBookings(tx, id);
    await audit(tx, {
      actorId: actor.id,
      action: 'listing.remove',
      targetType: 'listing',
      targetId: id,
      details: { name: car.name },
    });
    return { name: car.name, closed };
  });
  if (outcome)
    await notifyClosed(mailer, outcome.name, outcome.closed, 'it was removed from the site');
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

/** Advertised cars that can be booked now, most recently advertised first. */
export async function advertisedListings(db: Db, limit = 12) {
  return db
    .select(listingWithSeller)
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .where(and(eq(listing.status, 'available'), sql`${listing.advertisedAt} is not null`))
    .orderBy(desc(listing.advertisedAt))
    .limit(limit);
}

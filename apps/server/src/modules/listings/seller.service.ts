import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { CreateListingInput, UpdateListingInput } from '@carmarket/shared';
import type { Db, Tx } from '../../db/client.ts';
import { booking, category, listing, user } from '../../db/schema.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { Mailer } from '../../plugins/mail.ts';
import type { Storage } from '../../plugins/storage.ts';
import { resolveOwnUploads } from '../uploads/uploads.service.ts';
import { notifyClosed, withdrawCar } from './lifecycle.ts';
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
    const closedBookings = await withdrawCar(tx, id);
    if (!closedBookings)
      throw conflict(`Only an available car can be withdrawn; this one is ${row.status}.`);
    return closedBookings;
  });
  await notifyClosed(mailer, row.name, closed, 'the seller withdrew it');
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

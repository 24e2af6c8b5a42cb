import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { DealRating } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { booking, category, listing, listingDeal, ON_SALE_SQL, user } from '../../db/schema.ts';
import type { ListingDetailRow } from './listings.presenter.ts';

/*
 * A car on sale's deal rating (decision 032), kept on the car by the price guide, which rewrites
 * it on its own schedule; a withdrawn car may keep one until the next refresh, never shown.
 */
const dealRating = sql<DealRating | null>`case when ${listing.status} in ('available', 'reserved')
  then ${listing.dealRating} end`;

/** A car's columns with its seller's verified flag (join `user` on the seller). */
// The search document is for searching: every car read would carry its words for nothing.
const { searchDoc: _searchDoc, ...listingColumns } = getTableColumns(listing);
export const listingWithSeller = { ...listingColumns, sellerVerified: user.verified, dealRating };

const listingById = prepared('listing_by_id', (db) =>
  db
    .select({
      ...listingWithSeller,
      categoryName: category.name,
      deal: {
        fairCents: listingDeal.fairCents,
        lowCents: listingDeal.lowCents,
        highCents: listingDeal.highCents,
        comparables: listingDeal.comparables,
      },
    })
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .innerJoin(category, eq(category.id, listing.categoryId))
    .leftJoin(listingDeal, eq(listingDeal.listingId, listing.id))
    .where(eq(listing.id, sql.placeholder('id'))),
);

export async function findListing(db: Db, id: string): Promise<ListingDetailRow | undefined> {
  const [row] = await listingById(db, { id });
  return row;
}

/**
 * When a sold car was sold: when its booking was paid (one paid booking a car, the database
 * says). A car marked sold without one (data from before bookings) falls back to its last
 * change, which for a sold car is the sale: nothing changes a sold car after.
 */
export async function soldAt(db: Db, car: { id: string; updatedAt: Date }): Promise<Date> {
  const [paid] = await db
    .select({ paidAt: booking.paidAt })
    .from(booking)
    .where(and(eq(booking.listingId, car.id), eq(booking.status, 'paid')));
  return paid?.paidAt ?? car.updatedAt;
}

/** Advertised cars on sale (held ones too), most recently advertised first. */
export async function advertisedListings(db: Db, limit = 12) {
  return (
    db
      .select(listingWithSeller)
      .from(listing)
      .innerJoin(user, eq(user.id, listing.sellerId))
      // ON_SALE_SQL as written is what the partial index listing_advertised_idx names.
      .where(and(ON_SALE_SQL, sql`${listing.advertisedAt} is not null`))
      .orderBy(desc(listing.advertisedAt))
      .limit(limit)
  );
}

/** Cars by id, in no particular order; ids of no car are left out. */
export async function findCards(db: Db, ids: string[]) {
  return db
    .select(listingWithSeller)
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .where(inArray(listing.id, ids));
}

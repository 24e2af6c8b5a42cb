import { and, desc, eq, getTableColumns } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { listing, user } from '../../db/schema.ts';
import type { ListingRow } from './listings.presenter.ts';

const listingWithSeller = { ...getTableColumns(listing), sellerVerified: user.verified };

/** Cars of a category that can be booked now, newest first. */
export async function availableListingsOfCategory(
  db: Db,
  categoryId: string,
): Promise<ListingRow[]> {
  return db
    .select(listingWithSeller)
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .where(and(eq(listing.categoryId, categoryId), eq(listing.status, 'available')))
    .orderBy(desc(listing.createdAt));
}

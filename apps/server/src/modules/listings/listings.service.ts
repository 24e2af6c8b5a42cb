import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { category, listing, ON_SALE_SQL, user } from '../../db/schema.ts';
import type { ListingDetailRow } from './listings.presenter.ts';

/** A car's columns with its seller's verified flag (join `user` on the seller). */
export const listingWithSeller = { ...getTableColumns(listing), sellerVerified: user.verified };

export async function findListing(db: Db, id: string): Promise<ListingDetailRow | undefined> {
  const [row] = await db
    .select({ ...listingWithSeller, categoryName: category.name })
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .innerJoin(category, eq(category.id, listing.categoryId))
    .where(eq(listing.id, id));
  return row;
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

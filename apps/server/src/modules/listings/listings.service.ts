import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { category, listing, ON_SALE_SQL, user } from '../../db/schema.ts';
import type { ListingDetailRow } from './listings.presenter.ts';

/** A car's columns with its seller's verified flag (join `user` on the seller). */
// The search document is for searching: every car read would carry its words for nothing.
const { searchDoc: _searchDoc, ...listingColumns } = getTableColumns(listing);
export const listingWithSeller = { ...listingColumns, sellerVerified: user.verified };

const listingById = prepared('listing_by_id', (db) =>
  db
    .select({ ...listingWithSeller, categoryName: category.name })
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .innerJoin(category, eq(category.id, listing.categoryId))
    .where(eq(listing.id, sql.placeholder('id'))),
);

export async function findListing(db: Db, id: string): Promise<ListingDetailRow | undefined> {
  const [row] = await listingById(db, { id });
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

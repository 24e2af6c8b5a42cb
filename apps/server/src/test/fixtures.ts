import { asc, eq } from 'drizzle-orm';
import { listing, user } from '../db/schema.ts';
import type { TestApp } from './test-app.ts';

/** The demo seller's cars, oldest category first, as rows (for tests that need ids). */
export async function demoListings(app: TestApp) {
  return app.database.db
    .select({
      id: listing.id,
      name: listing.name,
      repriceCents: listing.repriceCents,
      categoryId: listing.categoryId,
    })
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .where(eq(user.email, 'seller@demo.local'))
    .orderBy(asc(listing.createdAt));
}

export const validBooking = (listingId: string) => ({
  listingId,
  userPhone: '+1 (555) 010-2030',
  userLocation: 'Downtown parking, 5th Ave',
});

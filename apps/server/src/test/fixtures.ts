import { asc, eq } from 'drizzle-orm';
import { TestClient } from './client.ts';
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

/** Stripe's test card that always succeeds. */
export const TEST_CARD = {
  number: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: new Date().getFullYear() + 2,
  cvc: '123',
};

/**
 * Pays for a booking the way the payment page does (start, card, record), so tests reach the
 * paid state the code itself produces. Answers the transaction id.
 */
export async function payFor(buyer: TestClient, bookingId: string): Promise<string> {
  const started = await buyer.post('/api/create-payment-intent', { bookingId });
  if (started.status !== 200) throw new Error(`start failed: ${await started.text()}`);
  const { clientSecret } = (await started.json()) as { clientSecret: string };
  const card = await new TestClient(buyer.app).post('/api/payments/sandbox/confirm', {
    clientSecret,
    card: TEST_CARD,
  });
  if (card.status !== 200) throw new Error(`card refused: ${await card.text()}`);
  const transactionId = clientSecret.split('_secret_')[0]!;
  const recorded = await buyer.post('/api/payments', { bookingId, transactionId });
  if (recorded.status !== 200) throw new Error(`record failed: ${await recorded.text()}`);
  return transactionId;
}

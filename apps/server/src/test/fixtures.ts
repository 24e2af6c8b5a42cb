import { and, asc, eq, isNotNull, like } from 'drizzle-orm';
import type { Booking, CategoryName, CategorySummary } from '@carmarket/shared';
import { register, signInAs, TestClient, type Server } from './client.ts';
import { listing, sandboxEvent, user } from '../db/schema.ts';
import type { TestApp } from './test-app.ts';
import { jpegWithExif, uploadBytes } from './uploads.ts';

/**
 * The demo seller's cars, oldest category first, as rows: for tests that read the seeded
 * catalogue. A test that books, pays for, edits or removes a car takes a `newCar` instead.
 */
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

/** A car a test listed for itself: what tests need of it. */
export interface TestCar {
  id: string;
  name: string;
  repriceCents: number;
  categoryId: string;
}

export interface NewCarOptions {
  /** Who lists it; the demo seller (Riverside Motors), signed in once per server, by default. */
  seller?: TestClient;
  /** A seeded category's name, or one a test added. */
  category?: CategoryName | (string & {});
  name?: string;
  repriceCents?: number;
  vin?: string;
}

const demoSellers = new WeakMap<Server, Promise<TestClient>>();
let photo: Promise<Buffer> | undefined;
let carsListed = 0;

/**
 * A new car on sale, listed as the add-product form lists one (a photo uploaded, then
 * `POST /api/product`), so that no other test shares it: the browser tests' `newCar()`.
 */
export async function newCar(app: Server, options: NewCarOptions = {}): Promise<TestCar> {
  let seller = options.seller;
  if (!seller) {
    let signedIn = demoSellers.get(app);
    if (!signedIn) {
      signedIn = signInAs(app, 'seller@demo.local');
      demoSellers.set(app, signedIn);
    }
    seller = await signedIn;
  }
  // Small, and made once: the photo is not what these tests are about.
  const uploaded = await uploadBytes(seller, await (photo ??= jpegWithExif(64, 48)));
  if (uploaded.status !== 200) {
    throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`);
  }
  const { url } = ((await uploaded.json()) as { data: { url: string } }).data;
  carsListed += 1;
  const category = options.category ?? 'Electric car';
  const name = options.name ?? `Test Car ${carsListed} of pid ${process.pid}`;
  const repriceCents = options.repriceCents ?? 1_850_000 + carsListed * 100;
  const created = await seller.post(`/api/product?name=${encodeURIComponent(category)}`, {
    name,
    reprice: repriceCents,
    orprice: repriceCents + 500_000,
    location: 'Fresno, CA',
    year: 2021,
    condition: 'Good',
    describe: 'A car listed by a test, for that test alone.',
    images: [url],
    ...(options.vin && { vin: options.vin }),
  });
  if (created.status !== 200) {
    throw new Error(`listing failed: ${created.status} ${await created.text()}`);
  }
  const { insertedId } = (await created.json()) as { insertedId: string };
  // What was sent, not what the car's page answers: tests compare that page with these.
  const categories = (await (await seller.get('/api/category')).json()) as CategorySummary[];
  const categoryId = categories.find((c) => c.name === category)!._id;
  return { id: insertedId, name, repriceCents, categoryId };
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

/** A new seller of their own (no payout account), signed in. */
export const newSeller = (app: TestApp) => register(app, { role: 'Seller' });

/** A new buyer, signed in, who has booked the car: the client, with the booking's id. */
export async function book(app: TestApp, listingId: string) {
  const buyer = await register(app);
  const response = await buyer.post('/api/category', validBooking(listingId));
  const { insertedId } = (await response.json()) as { insertedId: string };
  return Object.assign(buyer, { bookingId: insertedId });
}

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

/**
 * The sandbox's delivered `payment_intent.payment_failed` events for the payment whose client
 * secret is given: 1 once the processor's news of a declined card has reached our webhook.
 */
export async function declinesDelivered(app: TestApp, clientSecret: string): Promise<number> {
  const intentId = clientSecret.split('_secret_')[0]!;
  const rows = await app.database.db
    .select({ id: sandboxEvent.id })
    .from(sandboxEvent)
    .where(
      and(
        eq(sandboxEvent.type, 'payment_intent.payment_failed'),
        like(sandboxEvent.payload, `%${intentId}%`),
        isNotNull(sandboxEvent.deliveredAt),
      ),
    );
  return rows.length;
}

/**
 * A car of `seller` (else a new seller's), booked and paid for by a new buyer, as the payment
 * page pays.
 */
export async function paidBooking(
  app: TestApp,
  options: { seller?: TestClient; repriceCents?: number } = {},
) {
  const car = await newCar(app, options);
  const buyer = await book(app, car.id);
  const transactionId = await payFor(buyer, buyer.bookingId);
  return { car, buyer, bookingId: buyer.bookingId, transactionId };
}

/**
 * The buyer of a paid booking reports that the car was never handed over, and `admin` rules a
 * refund: the booking is refunded and its car goes back to its seller, withdrawn (decision 044).
 */
export async function refundByRuling(buyer: TestClient, admin: TestClient, bookingId: string) {
  const reported = await buyer.post(`/api/booked/${bookingId}/dispute`, {
    reason: 'The seller never handed the car over and stopped answering.',
  });
  if (reported.status !== 200) throw new Error(`dispute: ${reported.status}`);
  const { handover } = (await reported.json()) as { handover: { disputeId: string } };
  const ruled = await admin.post(`/api/disputes/${handover.disputeId}/resolve`, {
    outcome: 'refund',
    note: 'No hand-over happened.',
  });
  if (ruled.status !== 200) throw new Error(`ruling: ${ruled.status} ${await ruled.text()}`);
}

/** A booking as `client` (its buyer, its seller or an admin) is shown it. */
export async function bookingOf(client: TestClient, bookingId: string): Promise<Booking> {
  const response = await client.get(`/api/booked/${bookingId}`);
  if (response.status !== 200) throw new Error(`booking: ${response.status}`);
  return (await response.json()) as Booking;
}

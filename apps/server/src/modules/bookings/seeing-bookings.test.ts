import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookingListSchema, BookingSchema, ReceiptSchema, type Booking } from '@carmarket/shared';
import { listing, user } from '../../db/schema.ts';
import { readOutbox } from '../../adapters/mail.ts';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import {
  bookingOf,
  newCar,
  paidBooking,
  payFor,
  type TestCar,
  validBooking,
} from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe('seeing bookings', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it("shows a buyer their own bookings, newest first, and nobody else's", async () => {
    const buyer = await register(app);
    const other = await register(app);
    const [older, newer, theirs] = [await newCar(app), await newCar(app), await newCar(app)];
    await buyer.post('/api/category', validBooking(older.id));
    await buyer.post('/api/category', validBooking(newer.id));
    await other.post('/api/category', validBooking(theirs.id));

    const mine = BookingListSchema.parse(
      await (await buyer.get(`/api/booked?email=${buyer.account.email}`)).json(),
    );
    expect(mine.map((b) => b.listingId)).toEqual([newer.id, older.id]);
    expect((await buyer.get(`/api/booked?email=${other.account.email}`)).status).toBe(403);
    expect((await new TestClient(app).get(`/api/booked?email=${buyer.account.email}`)).status).toBe(
      401,
    );

    const admin = await signInAs(app, 'admin@demo.local');
    const seen = BookingListSchema.parse(
      await (await admin.get(`/api/booked?email=${other.account.email}`)).json(),
    );
    expect(seen).toHaveLength(1);
    expect((await admin.get('/api/booked?email=nope')).status).toBe(400);
  });

  it("shows one booking to its buyer, the car's seller and admins only", async () => {
    const buyer = await register(app);
    const { insertedId } = (await (
      await buyer.post('/api/category', validBooking((await newCar(app)).id))
    ).json()) as {
      insertedId: string;
    };
    for (const client of [
      buyer,
      await signInAs(app, 'seller@demo.local'),
      await signInAs(app, 'admin@demo.local'),
    ]) {
      expect((await client.get(`/api/booked/${insertedId}`)).status).toBe(200);
    }
    // To anyone else it is as if it did not exist: no 403 that confirms it does.
    for (const client of [await register(app), await register(app, { role: 'Seller' })]) {
      const response = await client.get(`/api/booked/${insertedId}`);
      expect(response.status).toBe(404);
    }
    expect((await new TestClient(app).get(`/api/booked/${insertedId}`)).status).toBe(401);
    expect((await buyer.get('/api/booked/0d7c0a1e-2a52-4c51-9b0b-7f6f2a1d9e10')).status).toBe(404);
  });

  it('lets only the buyer cancel', async () => {
    const buyer = await register(app);
    const { insertedId } = (await (
      await buyer.post('/api/category', validBooking((await newCar(app)).id))
    ).json()) as {
      insertedId: string;
    };
    const seller = await signInAs(app, 'seller@demo.local');
    expect((await seller.post(`/api/booked/${insertedId}/cancel`)).status).toBe(403);
    expect((await (await register(app)).post(`/api/booked/${insertedId}/cancel`)).status).toBe(404);
    expect((await buyer.post(`/api/booked/${insertedId}/cancel`)).status).toBe(200);
  });
});

describe('receipts (rough edge 10)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('shows the receipt of a paid booking to the buyer who paid, and to nobody else', async () => {
    const buyer = await register(app, { name: 'Rita Receipt' });
    const car = await newCar(app);
    const { insertedId } = (await (
      await buyer.post('/api/category', validBooking(car.id))
    ).json()) as { insertedId: string };
    const path = `/api/booked/${insertedId}/receipt`;
    // Not paid yet: no receipt.
    expect((await buyer.get(path)).status).toBe(404);

    const transactionId = await payFor(buyer, insertedId);
    const response = await buyer.get(path);
    expect(response.status).toBe(200);
    const receipt = ReceiptSchema.strict().parse(await response.json());
    expect(receipt).toMatchObject({
      bookingId: insertedId,
      listingId: car.id,
      carName: car.name,
      sellerName: 'Riverside Motors',
      buyerName: 'Rita Receipt',
      buyerEmail: buyer.account.email,
      amount: car.repriceCents,
      currency: 'USD',
      transactionId,
      refundedAt: null,
    });
    expect(Date.now() - Date.parse(receipt.paidAt)).toBeLessThan(60_000);

    // The seller, an admin and other buyers see the booking's state elsewhere; not a receipt.
    for (const client of [
      await register(app),
      await signInAs(app, 'seller@demo.local'),
      await signInAs(app, 'admin@demo.local'),
    ]) {
      const refused = await client.get(path);
      expect(refused.status).toBe(404);
      expect(await errorOf(refused)).toMatchObject({ code: 'not-found' });
    }
    expect((await new TestClient(app).get(path)).status).toBe(401);
    expect((await buyer.get('/api/booked/nope/receipt')).status).toBe(400);
    expect(
      (await buyer.get('/api/booked/0d7c0a1e-2a52-4c51-9b0b-7f6f2a1d9e10/receipt')).status,
    ).toBe(404);
  });

  it('says when the payment was refunded after a dispute', async () => {
    const { buyer, bookingId } = await paidBooking(app);
    const path = `/api/booked/${bookingId}/receipt`;
    const reported = await buyer.post(`/api/booked/${bookingId}/dispute`, {
      reason: 'The seller sold the car to someone else.',
    });
    const { handover } = BookingSchema.parse(await reported.json());
    const admin = await signInAs(app, 'admin@demo.local');
    // Disputed, not yet ruled on: nothing refunded.
    expect(ReceiptSchema.parse(await (await buyer.get(path)).json()).refundedAt).toBeNull();

    const ruled = await admin.post(`/api/disputes/${handover!.disputeId}/resolve`, {
      outcome: 'refund',
      note: 'The car was not handed over.',
    });
    expect(ruled.status).toBe(200);

    const receipt = ReceiptSchema.strict().parse(await (await buyer.get(path)).json());
    expect(receipt.refundedAt).toBe(
      BookingSchema.parse(await bookingOf(buyer, bookingId)).handover?.refundedAt,
    );
    expect(Date.parse(receipt.refundedAt!)).toBeGreaterThanOrEqual(Date.parse(receipt.paidAt));
  });
});

describe('why a booking closed (rough edge 12)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  async function book(buyer: TestClient, listingId: string): Promise<string> {
    const response = await buyer.post('/api/category', validBooking(listingId));
    expect(response.status).toBe(200);
    return ((await response.json()) as { insertedId: string }).insertedId;
  }

  async function bookingOf(buyer: TestClient, id: string): Promise<Booking> {
    return BookingSchema.parse(await (await buyer.get(`/api/booked/${id}`)).json());
  }

  it('keeps why each booking closed, in the words of the mail that told the buyer', async () => {
    const buyer = await register(app);
    // All of the demo seller's, whose account goes at the end.
    const cars: TestCar[] = [];
    for (let i = 0; i < 5; i += 1) cars.push(await newCar(app));
    const sold = await book(buyer, cars[0]!.id);
    const withdrawn = await book(buyer, cars[1]!.id);
    const removed = await book(buyer, cars[2]!.id);
    const sellerGone = await book(buyer, cars[3]!.id);
    expect((await bookingOf(buyer, sold)).closedReason).toBeNull();
    // A booking its buyer cancelled did not close: it has no such reason.
    const cancelled = await book(buyer, cars[4]!.id);
    await buyer.post(`/api/booked/${cancelled}/cancel`);
    expect(await bookingOf(buyer, cancelled)).toMatchObject({
      status: 'cancelled',
      closedReason: null,
    });

    const winner = await register(app);
    await payFor(winner, await book(winner, cars[0]!.id));
    const seller = await signInAs(app, 'seller@demo.local');
    expect((await seller.post(`/api/listings/${cars[1]!.id}/withdraw`)).status).toBe(200);
    const admin = await signInAs(app, 'admin@demo.local');
    expect((await admin.post(`/api/listings/${cars[2]!.id}/remove`)).status).toBe(200);
    const [demoSeller] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, 'seller@demo.local'));
    const deleted = await admin.request(`/api/user/remove/${demoSeller!.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);

    const expected = [
      [sold, 'sold', 0, 'another buyer bought it'],
      [withdrawn, 'withdrawn', 1, 'the seller withdrew it'],
      [removed, 'removed', 2, 'it was removed from the site'],
      [sellerGone, 'seller-deleted', 3, 'the seller’s account was closed'],
    ] as const;
    const mail = await readOutbox(app.outboxDir);
    for (const [id, reason, car, words] of expected) {
      expect(await bookingOf(buyer, id)).toMatchObject({ status: 'closed', closedReason: reason });
      const told = mail.find(
        (m) =>
          m.to === buyer.account.email && m.subject === `${cars[car]!.name} is no longer available`,
      );
      expect(told?.text).toContain(`has been closed because ${words}.`);
    }
  });
});

describe('GET /api/listings/:id', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('shows a car to signed-in people, and a withdrawn one only to its seller and admins', async () => {
    const car = await newCar(app);
    const buyer = await signInAs(app, 'buyer@demo.local');
    const detail = (await (await buyer.get(`/api/listings/${car.id}`)).json()) as Record<
      string,
      unknown
    >;
    expect(detail).toMatchObject({
      _id: car.id,
      name: car.name,
      categoryId: car.categoryId,
      seller: 'Riverside Motors',
    });
    expect(['Microbus', 'Luxury car', 'Electric car']).toContain(detail.categoryName);
    expect(String(detail.description).length).toBeGreaterThan(20);
    expect((await new TestClient(app).get(`/api/listings/${car.id}`)).status).toBe(401);

    await app.database.db
      .update(listing)
      .set({ status: 'withdrawn' })
      .where(eq(listing.id, car.id));
    // A withdrawn car's page says so to buyers (issue 32); a removed one is not found.
    expect(await (await buyer.get(`/api/listings/${car.id}`)).json()).toMatchObject({
      status: 'withdrawn',
    });
    await app.database.db.update(listing).set({ status: 'removed' }).where(eq(listing.id, car.id));
    expect((await buyer.get(`/api/listings/${car.id}`)).status).toBe(404);
    expect(
      (await (await signInAs(app, 'seller@demo.local')).get(`/api/listings/${car.id}`)).status,
    ).toBe(200);
    expect(
      (await (await signInAs(app, 'admin@demo.local')).get(`/api/listings/${car.id}`)).status,
    ).toBe(200);
    expect((await buyer.get('/api/listings/xyz')).status).toBe(400);
  });
});

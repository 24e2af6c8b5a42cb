import { ListingDetailSchema } from '@carmarket/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booking, listing } from '../../db/schema.ts';
import { register, signInAs, TestClient } from '../../test/client.ts';
import { newCar, payFor, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * A sold or withdrawn car's page stays up and says so (issue 32): the link in a saved car or an
 * alert's mail leads to the car, its photos and last price, and similar cars; nothing on it can
 * be booked or asked. A car an admin removed is not found.
 */
describe("a sold or withdrawn car's page", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { BROWSE_SIGNED_OUT: 'true' } });
  });
  afterAll(() => app.close());

  /** The answer's fields: exactly the car page's, nothing else (nothing to book with). */
  const fieldsOf = (answer: object) => Object.keys(answer).sort();
  const carPageFields = Object.keys(ListingDetailSchema.shape).sort();

  it('answers a sold car to buyers and visitors with its photos, facts, last price and when it sold, and refuses booking and asking', async () => {
    const car = await newCar(app, { repriceCents: 2_345_600 });
    await app.database.db
      .update(listing)
      .set({ year: 2018, mileageKm: 61_000 })
      .where(eq(listing.id, car.id));
    const owner = await register(app);
    const booked = await owner.post('/api/category', validBooking(car.id));
    const { insertedId } = (await booked.json()) as { insertedId: string };
    await payFor(owner, insertedId);
    const [paid] = await app.database.db
      .select({ paidAt: booking.paidAt })
      .from(booking)
      .where(and(eq(booking.listingId, car.id), eq(booking.status, 'paid')));

    const buyer = await register(app);
    const response = await buyer.get(`/api/listings/${car.id}`);
    expect(response.status).toBe(200);
    const shown = (await response.json()) as Record<string, unknown>;
    expect(fieldsOf(shown)).toEqual(carPageFields);
    const detail = ListingDetailSchema.parse(shown);
    expect(detail).toMatchObject({
      _id: car.id,
      status: 'sold',
      name: car.name,
      year: 2018,
      mileageKm: 61_000,
      reprice: 2_345_600,
      soldAt: paid!.paidAt!.toISOString(),
      // Nothing about buying it: no hold, no price guide, no deal rating.
      reservedUntil: null,
      priceGuide: null,
      dealRating: null,
    });
    expect(detail.images).toHaveLength(1);
    expect(detail.images[0]!.url).toMatch(/^\/media\//);

    // A visitor where browsing is open sees the same page.
    const visitor = new TestClient(app);
    expect(await (await visitor.get(`/api/listings/${car.id}`)).json()).toEqual(shown);

    // Booking and asking refuse it, as before the page was shown.
    const book = await buyer.post('/api/category', validBooking(car.id));
    expect(book.status).toBe(409);
    const ask = await buyer.post(`/api/listings/${car.id}/messages`, { body: 'Still for sale?' });
    expect(ask.status).toBe(409);
  });

  it('answers a withdrawn car as no longer listed, and refuses booking and asking as not found', async () => {
    const car = await newCar(app);
    const seller = await signInAs(app, 'seller@demo.local');
    expect((await seller.post(`/api/listings/${car.id}/withdraw`)).status).toBe(200);

    const buyer = await register(app);
    const shown = (await (await buyer.get(`/api/listings/${car.id}`)).json()) as Record<
      string,
      unknown
    >;
    expect(fieldsOf(shown)).toEqual(carPageFields);
    expect(ListingDetailSchema.parse(shown)).toMatchObject({
      _id: car.id,
      status: 'withdrawn',
      name: car.name,
      reprice: car.repriceCents,
      soldAt: null,
      reservedUntil: null,
      priceGuide: null,
    });
    expect((await new TestClient(app).get(`/api/listings/${car.id}`)).status).toBe(200);

    expect((await buyer.post('/api/category', validBooking(car.id))).status).toBe(404);
    const ask = await buyer.post(`/api/listings/${car.id}/messages`, { body: 'Still for sale?' });
    expect(ask.status).toBe(404);
  });

  it('keeps a car an admin removed not found, but for its seller and admins', async () => {
    const car = await newCar(app);
    const admin = await signInAs(app, 'admin@demo.local');
    const removed = await admin.post(`/api/listings/${car.id}/remove`, { reason: 'Test reason' });
    expect(removed.status).toBe(200);

    const buyer = await register(app);
    for (const path of [`/api/listings/${car.id}`, `/api/listings/${car.id}/similar`]) {
      expect((await buyer.get(path)).status, path).toBe(404);
      expect((await new TestClient(app).get(path)).status, path).toBe(404);
    }
    const seller = await signInAs(app, 'seller@demo.local');
    for (const who of [seller, admin]) {
      const seen = await who.get(`/api/listings/${car.id}`);
      expect(seen.status).toBe(200);
      expect(await seen.json()).toMatchObject({ status: 'removed', soldAt: null });
    }
  });
});

describe("a sold car's page where browsing signed out is closed (the default)", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('asks a visitor to sign in (401), and shows it to anyone signed in', async () => {
    const car = await newCar(app);
    await app.database.db.update(listing).set({ status: 'sold' }).where(eq(listing.id, car.id));
    for (const path of [`/api/listings/${car.id}`, `/api/listings/${car.id}/similar`]) {
      expect((await new TestClient(app).get(path)).status, path).toBe(401);
    }
    const buyer = await register(app);
    const shown = await buyer.get(`/api/listings/${car.id}`);
    expect(shown.status).toBe(200);
    // Marked sold without a paid booking (older data): it sold at its last change.
    const [row] = await app.database.db
      .select({ updatedAt: listing.updatedAt })
      .from(listing)
      .where(eq(listing.id, car.id));
    expect(await shown.json()).toMatchObject({
      status: 'sold',
      soldAt: row!.updatedAt.toISOString(),
    });
    expect((await buyer.get(`/api/listings/${car.id}/similar`)).status).toBe(200);
  });
});

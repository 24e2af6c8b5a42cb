import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListingDetailSchema, MyListingListSchema, SavedCarListSchema } from '@carmarket/shared';
import { booking, listing } from '../../db/schema.ts';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { payFor, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { buyerWithMail, mailTo } from '../saved/saved.test-helpers.ts';
import { newCar } from './listings.test-helpers.ts';

/*
 * Issue 34, part 1: a seller puts a withdrawn car back on sale (POST /api/listings/:id/relist),
 * with its photos, saves and history; the buyers who saved it are told it is back.
 */

const LIMIT = 3;

describe('POST /api/listings/:id/relist', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The alert worker runs only when a test asks (app.runAlerts), so each test knows what was sent.
    app = await startTestApp({
      env: { ALERT_INTERVAL_MS: '3600000', RELIST_LIMIT_PER_DAY: String(LIMIT) },
    });
  });
  afterAll(() => app.close());

  const relist = (client: TestClient, carId: string) =>
    client.post(`/api/listings/${carId}/relist`);

  async function carOnSale(seller: TestClient, name: string): Promise<string> {
    const response = await newCar(seller, { name });
    expect(response.status).toBe(200);
    return ((await response.json()) as { insertedId: string }).insertedId;
  }

  async function withdrawnCar(seller: TestClient, name: string): Promise<string> {
    const carId = await carOnSale(seller, name);
    expect((await seller.post(`/api/listings/${carId}/withdraw`)).status).toBe(200);
    return carId;
  }

  async function statusOf(carId: string) {
    const [row] = await app.database.db
      .select({ status: listing.status })
      .from(listing)
      .where(eq(listing.id, carId));
    return row?.status;
  }

  it('puts a withdrawn car back on sale as it was, and answers 409 once it is on sale', async () => {
    const seller = await register(app, { role: 'Seller' });
    const buyer = await register(app);
    const carId = await carOnSale(seller, 'Relisted Polestar');
    const before = ListingDetailSchema.parse(
      await (await buyer.get(`/api/listings/${carId}`)).json(),
    );
    const booked = await buyer.post('/api/category', validBooking(carId));
    expect(booked.status).toBe(200);
    const { insertedId: bookingId } = (await booked.json()) as { insertedId: string };
    expect((await seller.post(`/api/listings/${carId}/withdraw`)).status).toBe(200);
    expect(await (await buyer.get(`/api/listings/${carId}`)).json()).toMatchObject({
      status: 'withdrawn',
    });

    const response = await relist(seller, carId);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ acknowledged: true });
    expect(await statusOf(carId)).toBe('available');

    // Buyers see it again, with its photos and price; it can be booked again.
    const after = ListingDetailSchema.parse(
      await (await buyer.get(`/api/listings/${carId}`)).json(),
    );
    expect(after).toMatchObject({ status: 'available', reprice: before.reprice });
    expect(after.images.map((image) => image.url)).toEqual(before.images.map((image) => image.url));
    expect((await buyer.post('/api/category', validBooking(carId))).status).toBe(200);
    // Its history stays: the booking the withdrawal closed is still closed, and says why.
    const [closed] = await app.database.db.select().from(booking).where(eq(booking.id, bookingId));
    expect(closed).toMatchObject({ status: 'closed', closedReason: 'withdrawn' });
    const mine = MyListingListSchema.parse(await (await seller.get('/api/my/listings')).json());
    expect(mine.find((car) => car._id === carId)).toMatchObject({
      status: 'available',
      bookingsCount: 2,
    });

    const again = await relist(seller, carId);
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatchObject({
      code: 'conflict',
      message: 'This car is on sale already.',
    });
  });

  it('answers 409 for a sold car and 404 for a removed one, and changes neither', async () => {
    const seller = await register(app, { role: 'Seller' });
    const buyer = await register(app);
    const sold = await carOnSale(seller, 'Sold Polestar');
    const { insertedId: bookingId } = (await (
      await buyer.post('/api/category', validBooking(sold))
    ).json()) as { insertedId: string };
    await payFor(buyer, bookingId);
    expect(await statusOf(sold)).toBe('sold');
    const refused = await relist(seller, sold);
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toBe('A sold car cannot be put back on sale.');
    expect(await statusOf(sold)).toBe('sold');

    const admin = await signInAs(app, 'admin@demo.local');
    for (const removed of [
      await withdrawnCar(seller, 'Withdrawn, then removed'),
      await carOnSale(seller, 'Removed on sale'),
    ]) {
      expect((await admin.post(`/api/listings/${removed}/remove`)).status).toBe(200);
      const answer = await relist(seller, removed);
      expect(answer.status).toBe(404);
      expect((await errorOf(answer)).message).toBe('That car was not found.');
      expect(await statusOf(removed)).toBe('removed');
    }
    expect((await relist(seller, '0d7c0a1e-2a52-4c51-9b0b-7f6f2a1d9e10')).status).toBe(404);
  });

  it("lets only the car's seller put it back: to another seller it does not exist", async () => {
    const seller = await register(app, { role: 'Seller' });
    const carId = await withdrawnCar(seller, 'Not yours');
    const other = await register(app, { role: 'Seller' });
    const answer = await relist(other, carId);
    expect(answer.status).toBe(404);
    expect((await errorOf(answer)).message).toBe('That car was not found.');
    // Buyers are refused at the door (Seller accounts only); an admin may see it, not change it.
    expect((await relist(await register(app), carId)).status).toBe(403);
    expect((await relist(await signInAs(app, 'admin@demo.local'), carId)).status).toBe(403);
    expect((await relist(new TestClient(app), carId)).status).toBe(401);
    expect(await statusOf(carId)).toBe('withdrawn');
  });

  it('keeps the saves, and tells the savers it is back: in the app, and by mail to confirmed addresses only', async () => {
    const seller = await register(app, { role: 'Seller' });
    const carId = await carOnSale(seller, 'Saved Polestar');
    const confirmed = await buyerWithMail(app);
    const unconfirmed = await register(app);
    const bystander = await buyerWithMail(app);
    for (const saver of [confirmed, unconfirmed]) {
      expect((await saver.request(`/api/saved-cars/${carId}`, { method: 'PUT' })).status).toBe(200);
    }
    const savedCar = async (saver: TestClient) =>
      SavedCarListSchema.parse(await (await saver.get('/api/saved-cars')).json()).find(
        (saved) => saved.listingId === carId,
      );
    const backOnSale = async (email: string) =>
      (await mailTo(app, email)).filter((mail) => mail.subject.startsWith('Back on sale'));

    expect((await seller.post(`/api/listings/${carId}/withdraw`)).status).toBe(200);
    await app.runAlerts();
    expect(await savedCar(confirmed)).toMatchObject({
      car: { status: 'withdrawn' },
      backOnSaleAt: null,
    });

    expect((await relist(seller, carId)).status).toBe(200);
    await app.runAlerts();
    // Still saved, on sale again, and saying so.
    for (const saver of [confirmed, unconfirmed]) {
      const saved = await savedCar(saver);
      expect(saved).toMatchObject({ car: { status: 'available' } });
      expect(saved!.backOnSaleAt).not.toBeNull();
    }
    const mine = MyListingListSchema.parse(await (await seller.get('/api/my/listings')).json());
    expect(mine.find((car) => car._id === carId)?.savedCount).toBe(2);

    const [mail, ...more] = await backOnSale(confirmed.account.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Back on sale: Saved Polestar');
    expect(mail!.text).toContain(`/listing/${carId}`);
    expect(await backOnSale(unconfirmed.account.email)).toEqual([]);
    expect(await backOnSale(bystander.account.email)).toEqual([]);
    expect(await backOnSale(seller.account.email)).toEqual([]);

    // Taken off and put back again the same day: the savers were told already.
    expect((await seller.post(`/api/listings/${carId}/withdraw`)).status).toBe(200);
    expect((await relist(seller, carId)).status).toBe(200);
    await app.runAlerts();
    expect(await backOnSale(confirmed.account.email)).toHaveLength(1);
  });

  it('lets a seller put RELIST_LIMIT_PER_DAY cars back a day; a refused call does not count', async () => {
    const seller = await register(app, { role: 'Seller' });
    const onSale = await carOnSale(seller, 'Never withdrawn');
    expect((await relist(seller, onSale)).status).toBe(409);
    const cars: string[] = [];
    for (let index = 0; index <= LIMIT; index += 1) {
      cars.push(await withdrawnCar(seller, `Limited ${index}`));
    }
    for (const carId of cars.slice(0, LIMIT)) {
      expect((await relist(seller, carId)).status).toBe(200);
    }
    const over = await relist(seller, cars[LIMIT]!);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await errorOf(over)).message).toMatch(
      new RegExp(`^You can put ${LIMIT} cars back on sale a day\\. Try again in `),
    );
    expect(await statusOf(cars[LIMIT]!)).toBe('withdrawn');
    // Another seller has their own.
    const other = await register(app, { role: 'Seller' });
    expect((await relist(other, await withdrawnCar(other, 'Their own'))).status).toBe(200);
  });
});

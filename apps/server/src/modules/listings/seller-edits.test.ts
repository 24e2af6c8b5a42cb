import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditListSchema, MyListingListSchema } from '@carmarket/shared';
import { booking } from '../../db/schema.ts';
import { isSignUpMail } from '../../test/mail.ts';
import { readOutbox } from '../../adapters/mail.ts';
import type { TestClient } from '../../test/client.ts';
import { errorOf, register, signInAs } from '../../test/client.ts';
import { validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { newCar } from './listings.test-helpers.ts';
import { uploadPhoto } from '../../test/uploads.ts';

describe('editing a seeded demo car', () => {
  it('keeps, reorders and drops its photos like any upload of the seller', async () => {
    const app = await startTestApp();
    try {
      const seller = await signInAs(app, 'seller@demo.local');
      const [car] = MyListingListSchema.parse(await (await seller.get('/api/my/listings')).json());
      const extra = await uploadPhoto(seller);
      const images = [extra, car!.images[0]!.url];
      const response = await seller.request(`/api/listings/${car!._id}`, {
        method: 'PUT',
        json: { images },
      });
      expect(response.status).toBe(200);
      const [after] = MyListingListSchema.parse(
        await (await seller.get('/api/my/listings')).json(),
      );
      expect(after!.images.map((i) => i.url)).toEqual(images);
    } finally {
      await app.close();
    }
  });
});

describe('POST /api/listings/:id/remove', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('lets an admin take a car off the site, closing its bookings, and nobody else', async () => {
    const seller = await register(app, { role: 'Seller' });
    const { insertedId } = (await (await newCar(seller, { name: 'Removed EV' })).json()) as {
      insertedId: string;
    };
    const buyer = await register(app);
    await buyer.post('/api/category', validBooking(insertedId));
    expect((await seller.post(`/api/listings/${insertedId}/remove`)).status).toBe(403);
    expect((await buyer.post(`/api/listings/${insertedId}/remove`)).status).toBe(403);
    const admin = await signInAs(app, 'admin@demo.local');
    expect((await admin.post(`/api/listings/${insertedId}/remove`)).status).toBe(200);
    expect((await admin.post(`/api/listings/${insertedId}/remove`)).status).toBe(200);
    const [held] = await app.database.db
      .select()
      .from(booking)
      .where(eq(booking.listingId, insertedId));
    expect(held?.status).toBe('closed');
    expect((await buyer.get(`/api/listings/${insertedId}`)).status).toBe(404);
    const log = (await (await admin.get('/api/audit')).json()) as Array<{
      action: string;
      targetId: string;
    }>;
    expect(log[0]).toMatchObject({ action: 'listing.remove', targetId: insertedId });
    expect(
      (await admin.post('/api/listings/0d7c0a1e-2a52-4c51-9b0b-7f6f2a1d9e10/remove')).status,
    ).toBe(404);
  });

  it("mails the seller the admin's reason, which the shared schema checks, and logs it", async () => {
    const seller = await register(app, { role: 'Seller', name: 'Rita Removed' });
    const { insertedId } = (await (await newCar(seller, { name: 'Faked Photos EV' })).json()) as {
      insertedId: string;
    };
    const admin = await signInAs(app, 'admin@demo.local');
    const path = `/api/listings/${insertedId}/remove`;

    for (const reason of ['   ', 'x'.repeat(1001), 'Spam\u0000', 42]) {
      const refused = await admin.post(path, { reason });
      expect(refused.status, JSON.stringify(reason)).toBe(400);
      expect(await errorOf(refused)).toMatchObject({ code: 'validation-failed', field: 'reason' });
    }
    expect((await seller.get(`/api/listings/${insertedId}`)).status).toBe(200);

    const reason = 'The photos show a different car.\nPlease list it again with its own.';
    expect((await admin.post(path, { reason: `  ${reason} ` })).status).toBe(200);
    const mail = (await readOutbox(app.outboxDir)).filter(
      (m) => m.to === seller.account.email && !isSignUpMail(m),
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('Your Faked Photos EV was removed from CarMarket');
    expect(mail[0]!.text).toContain('Hello Rita Removed,');
    expect(mail[0]!.text).toContain(`The reason they gave:\n\n${reason}`);
    const [entry] = AuditListSchema.parse(await (await admin.get('/api/audit')).json());
    expect(entry).toMatchObject({
      action: 'listing.remove',
      targetId: insertedId,
      details: { name: 'Faked Photos EV', reason },
    });
  });

  it('still removes a car when the first API sends no body, telling the seller no reason was given', async () => {
    const seller = await register(app, { role: 'Seller' });
    const { insertedId } = (await (await newCar(seller)).json()) as { insertedId: string };
    const admin = await signInAs(app, 'admin@demo.local');
    const response = await admin.request(`/api/listings/${insertedId}/remove`, { method: 'POST' });
    expect(response.status).toBe(200);
    const mail = (await readOutbox(app.outboxDir)).filter(
      (m) => m.to === seller.account.email && !isSignUpMail(m),
    );
    expect(mail.map((m) => m.text)).toEqual([expect.stringContaining('They gave no reason.')]);
  });
});

describe('car data on POST /api/product and edits', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    seller = await register(app, { role: 'Seller', name: 'Dana Dealer' });
  });
  afterAll(() => app.close());

  async function mine(id: string) {
    const list = MyListingListSchema.parse(await (await seller.get('/api/my/listings')).json());
    return list.find((car) => car._id === id)!;
  }

  it("accepts the spec's body as it is: one img, no new fields; make and model come from the name", async () => {
    const img = await uploadPhoto(seller);
    const response = await seller.post(`/api/product?name=Electric%20car`, {
      name: 'Toyota Prius Prime XSE',
      reprice: 24_000_00,
      orprice: 33_000_00,
      location: 'Austin, TX',
      year: 2021,
      condition: 'Good',
      describe: 'Plug-in, 40 miles on battery.',
      img,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const { insertedId } = (await response.json()) as { insertedId: string };
    const car = await mine(insertedId);
    expect(car).toMatchObject({
      make: 'Toyota',
      model: 'Prius',
      img,
      placeId: null,
      mileageKm: null,
    });
    expect(car.images.map((image) => image.url)).toEqual([img]);
  });

  it('stores the structured fields and the coordinates of the place picked, never the client’s', async () => {
    const images = [await uploadPhoto(seller)];
    const response = await newCar(seller, {
      images,
      make: 'Polestar',
      model: 'Polestar 2',
      bodyType: 'Sedan',
      fuel: 'electric',
      transmission: 'automatic',
      colour: 'Grey',
      vin: ' 1m8gdm9axkp042788 ',
      placeId: 5746545,
      lat: 0,
      lng: 0,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const { insertedId } = (await response.json()) as { insertedId: string };
    const car = await mine(insertedId);
    expect(car).toMatchObject({
      make: 'Polestar',
      model: 'Polestar 2',
      bodyType: 'Sedan',
      fuel: 'electric',
      transmission: 'automatic',
      colour: 'Grey',
      vin: '1M8GDM9AXKP042788',
      placeId: 5746545,
    });
    const near = await seller.get('/api/listings?near=5746545&radiusKm=5');
    const body = (await near.json()) as { items: { _id: string; distanceKm: number }[] };
    expect(body.items.find((item) => item._id === insertedId)?.distanceKm).toBe(0);
  });

  it('refuses bad car data with a message on the field', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ make: 'Toyoda', model: 'Corolla' }, 'make', /make from the list/],
      [{ make: 'Toyota', model: 'Golf' }, 'model', /Toyota model/],
      [{ make: 'Toyota' }, 'model', /together/],
      [{ fuel: 'coal' }, 'fuel', /fuel/],
      [{ transmission: 'cvt' }, 'transmission', /manual or automatic/],
      [{ vin: '1M8GDM9AXKP04278' }, 'vin', /17 characters/],
      [{ vin: '1M8GDM9AXKP04278O' }, 'vin', /I, O or Q/],
      [{ vin: '1M8GDM9A1KP042788' }, 'vin', /check digit/],
      [{ placeId: 999_999_999 }, 'placeId', /Pick a place/],
      [{ mileageKm: 'lots' }, 'mileageKm', /number/],
      [{ images: undefined }, 'images', /Image is required/],
    ];
    for (const [overrides, field, message] of cases) {
      const response = await newCar(seller, overrides);
      expect(response.status, JSON.stringify(overrides)).toBe(400);
      const error = await errorOf(response);
      expect(error.field, JSON.stringify(overrides)).toBe(field);
      expect(error.message).toMatch(message);
    }
    // A VIN from outside North America has no check digit to verify.
    expect((await newCar(seller, { vin: 'WVWZZZ1JZ3W386752' })).status).toBe(200);
  });

  it('keeps make and model consistent on edits', async () => {
    const response = await newCar(seller, { make: 'Polestar', model: 'Polestar 2' });
    const { insertedId } = (await response.json()) as { insertedId: string };
    const edit = (changes: Record<string, unknown>) =>
      seller.request(`/api/listings/${insertedId}`, { method: 'PATCH', json: changes });
    const wrong = await edit({ model: 'Model 3' });
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).field).toBe('model');
    expect((await edit({ make: 'Tesla', model: 'Model 3', fuel: 'electric' })).status).toBe(200);
    expect(await mine(insertedId)).toMatchObject({
      make: 'Tesla',
      model: 'Model 3',
      fuel: 'electric',
    });
    // Changing the make alone leaves the model unknown: "Other".
    expect((await edit({ make: 'BYD' })).status).toBe(200);
    expect(await mine(insertedId)).toMatchObject({ make: 'BYD', model: 'Other' });
  });
});

import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CategoryDetailSchema,
  MyListingListSchema,
  type CategorySummary,
  type ListingCard,
} from '@carmarket/shared';
import { booking, listing } from '../../db/schema.ts';
import { readOutbox } from '../../adapters/mail.ts';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { newCar } from './listings.test-helpers.ts';
import { uploadPhoto } from '../../test/uploads.ts';

describe('sellers and their cars', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('adds a car that shows in its category and in My Products', async () => {
    const seller = await register(app, { role: 'Seller', name: 'Sam Seller' });
    const response = await newCar(seller);
    expect(response.status).toBe(200);
    const { acknowledged, insertedId } = (await response.json()) as {
      acknowledged: boolean;
      insertedId: string;
    };
    expect(acknowledged).toBe(true);

    const mine = MyListingListSchema.parse(await (await seller.get('/api/my/listings')).json());
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      _id: insertedId,
      name: 'Polestar 2 Long Range',
      reprice: 31_500_00,
      orprice: 49_900_00,
      seller: 'Sam Seller',
      categoryName: 'Electric car',
      status: 'available',
      bookingsCount: 0,
      sold: false,
      advertised: false,
    });
    expect(mine[0]!.images).toHaveLength(2);

    const categories = (await (await app.request('/api/category')).json()) as CategorySummary[];
    const electric = categories.find((c) => c.name === 'Electric car')!;
    expect(electric.count).toBe(7);
    const detail = CategoryDetailSchema.parse(
      await (await seller.get(`/api/category/${electric._id}`)).json(),
    );
    expect(detail.listings[0]!._id).toBe(insertedId);
  });

  it('pages My Products with limit and cursor: every car once, in the order of the whole list', async () => {
    const seller = await signInAs(app, 'seller@demo.local');
    const whole = MyListingListSchema.parse(await (await seller.get('/api/my/listings')).json());
    expect(whole.length).toBeGreaterThan(10);
    // Cars listed in the same instant: the page boundary falls among them.
    const tied = whole.slice(3, 9).map((car) => car._id);
    await app.database.db
      .update(listing)
      .set({ createdAt: new Date('2026-01-02T03:04:05.678Z') })
      .where(inArray(listing.id, tied));
    const all = MyListingListSchema.parse(await (await seller.get('/api/my/listings')).json());
    expect(all.map((car) => car._id).sort()).toEqual(whole.map((car) => car._id).sort());

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query = `limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await seller.get(`/api/my/listings?${query}`);
      expect(response.status).toBe(200);
      expect(Number(response.headers.get('x-total-count'))).toBe(all.length);
      const page = MyListingListSchema.parse(await response.json());
      expect(page.length).toBeLessThanOrEqual(5);
      seen.push(...page.map((car) => car._id));
      cursor = response.headers.get('x-next-cursor');
      pages += 1;
    } while (cursor && pages < 100);
    expect(seen).toEqual(all.map((car) => car._id));
    // A cursor alone pages by the default size (24: the rest, here).
    const first = await seller.get('/api/my/listings?limit=5');
    const next = await seller.get(
      `/api/my/listings?cursor=${encodeURIComponent(first.headers.get('x-next-cursor')!)}`,
    );
    expect(MyListingListSchema.parse(await next.json()).map((car) => car._id)).toEqual(
      all.slice(5, 29).map((car) => car._id),
    );

    for (const bad of ['limit=0', 'limit=49', 'limit=two', 'cursor=not-a-cursor']) {
      const response = await seller.get(`/api/my/listings?${bad}`);
      expect(response.status, bad).toBe(400);
      expect((await errorOf(response)).field, bad).toBe(bad.split('=')[0]);
    }
    const searched = await seller.get('/api/listings?limit=1');
    const searchCursor = ((await searched.json()) as { nextCursor: string }).nextCursor;
    const foreign = await seller.get(`/api/my/listings?cursor=${encodeURIComponent(searchCursor)}`);
    expect(foreign.status).toBe(400);
  });

  it('lets only sellers add cars, into a known category', async () => {
    const buyer = await register(app, { role: 'Buyer' });
    // Buyers cannot upload photos; a seller's photo does not make them one.
    const photo = await uploadPhoto(await register(app, { role: 'Seller' }));
    const asBuyer = await buyer.post('/api/product?name=Microbus', {
      name: 'x',
      reprice: 100,
      orprice: 100,
      location: 'x',
      year: 2020,
      condition: 'Good',
      describe: 'x',
      images: [photo],
    });
    expect(asBuyer.status).toBe(403);
    expect((await new TestClient(app).post('/api/product?name=Microbus', {})).status).toBe(401);
    const seller = await register(app, { role: 'Seller' });
    const unknown = await newCar(seller, {}, 'Spaceship');
    expect(unknown.status).toBe(400);
    expect(await errorOf(unknown)).toMatchObject({
      message: 'Category is required',
      field: 'category',
    });
  });

  it.each([
    [{ name: '' }, 'name', 'Name is required'],
    [{ reprice: undefined }, 'reprice', 'Price is required'],
    [{ reprice: 10.5 }, 'reprice', 'Price must be a whole number of cents'],
    [{ reprice: -5 }, 'reprice', 'Price must be more than zero'],
    [{ year: new Date().getFullYear() + 2 }, 'year', 'Model year cannot be in the future'],
    [{ year: '3 days ago' }, 'year', 'Model year is required'],
    [{ condition: 'Mint' }, 'condition', 'Condition is required'],
    [{ describe: '  ' }, 'describe', 'Description is required'],
    [{ images: [] }, 'images', 'Image is required'],
  ])('refuses %o with the message "%s"', async (overrides, field, message) => {
    const seller = await register(app, { role: 'Seller' });
    const response = await newCar(seller, overrides);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.field).toBe(field);
    expect(error.message).toContain(message);
  });

  it('takes up to 20 photos a car, in order, and refuses a 21st naming the photos', async () => {
    const seller = await register(app, { role: 'Seller' });
    const photos: string[] = [];
    for (let n = 0; n < 21; n += 1) photos.push(await uploadPhoto(seller));

    const tooMany = await newCar(seller, { images: photos });
    expect(tooMany.status).toBe(400);
    const error = await errorOf(tooMany);
    expect(error.field).toBe('images');
    expect(error.message).toContain('A car can have at most 20 photos');

    const twenty = photos.slice(0, 20);
    const created = await newCar(seller, { images: twenty });
    expect(created.status).toBe(200);
    const { insertedId } = (await created.json()) as { insertedId: string };
    const page = await seller.get(`/api/listings/${insertedId}`);
    expect(page.status, await page.clone().text()).toBe(200);
    const car = (await page.json()) as { images: { url: string }[] };
    expect(car.images.map((image) => image.url)).toEqual(twenty);
  });

  it("never accepts someone else's photo or a made-up URL", async () => {
    const other = await register(app, { role: 'Seller' });
    const theirs = await uploadPhoto(other);
    const seller = await register(app, { role: 'Seller' });
    for (const images of [
      [theirs],
      ['https://evil.example/car.jpg'],
      ['/media/00000000-0000-4000-8000-000000000000.webp'],
    ]) {
      const response = await newCar(seller, { images });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).field).toBe('images');
    }
  });

  it("shows a fresh install's home page a few demo cars, advertised by the verified demo seller", async () => {
    const demo = (await (await app.request('/api/advertised')).json()) as ListingCard[];
    expect(demo.map((car) => car.name)).toEqual(
      expect.arrayContaining([
        'Volkswagen Transporter T6.1 Kombi',
        'Mercedes-Benz S 500 4MATIC',
        'Tesla Model 3 Long Range',
      ]),
    );
    for (const car of demo) {
      expect(car).toMatchObject({
        seller: 'Riverside Motors',
        sellerVerified: true,
        advertised: true,
      });
    }
  });

  it('advertises an available car on the home page until it is withdrawn', async () => {
    const seller = await register(app, { role: 'Seller' });
    const { insertedId } = (await (await newCar(seller, { name: 'Advertised EV' })).json()) as {
      insertedId: string;
    };
    expect(
      (await seller.request(`/api/listings/${insertedId}/advertise`, { method: 'PUT' })).status,
    ).toBe(200);
    let advertised = (await (await app.request('/api/advertised')).json()) as ListingCard[];
    expect(advertised[0]).toMatchObject({ _id: insertedId, advertised: true });

    expect(
      (await seller.request(`/api/listings/${insertedId}/advertise`, { method: 'DELETE' })).status,
    ).toBe(200);
    advertised = (await (await app.request('/api/advertised')).json()) as ListingCard[];
    expect(advertised.map((c) => c._id)).not.toContain(insertedId);

    await seller.request(`/api/listings/${insertedId}/advertise`, { method: 'PUT' });
    const buyer = await register(app);
    await buyer.post('/api/category', validBooking(insertedId));
    expect((await seller.post(`/api/listings/${insertedId}/withdraw`)).status).toBe(200);
    advertised = (await (await app.request('/api/advertised')).json()) as ListingCard[];
    expect(advertised.map((c) => c._id)).not.toContain(insertedId);
    // The open booking closed and its buyer was told.
    const [held] = await app.database.db
      .select()
      .from(booking)
      .where(eq(booking.listingId, insertedId));
    expect(held?.status).toBe('closed');
    const mail = await readOutbox(app.outboxDir);
    expect(
      mail.some(
        (m) => m.to === buyer.account.email && m.subject === 'Advertised EV is no longer available',
      ),
    ).toBe(true);
    // A withdrawn car cannot be advertised, withdrawn again, or booked.
    expect(
      (await seller.request(`/api/listings/${insertedId}/advertise`, { method: 'PUT' })).status,
    ).toBe(409);
    expect((await seller.post(`/api/listings/${insertedId}/withdraw`)).status).toBe(409);
    expect((await buyer.post('/api/category', validBooking(insertedId))).status).toBe(404);
  });

  it('lets a seller change only their own cars', async () => {
    const seller = await register(app, { role: 'Seller' });
    const { insertedId } = (await (await newCar(seller)).json()) as { insertedId: string };
    const other = await register(app, { role: 'Seller' });
    expect(
      (
        await other.request(`/api/listings/${insertedId}`, {
          method: 'PATCH',
          json: { name: 'Mine now' },
        })
      ).status,
    ).toBe(403);
    expect((await other.post(`/api/listings/${insertedId}/withdraw`)).status).toBe(403);
    expect(
      (await other.request(`/api/listings/${insertedId}/advertise`, { method: 'PUT' })).status,
    ).toBe(403);
    const buyer = await register(app);
    expect(
      (await buyer.request(`/api/listings/${insertedId}`, { method: 'PATCH', json: { name: 'x' } }))
        .status,
    ).toBe(403);

    const edit = await seller.request(`/api/listings/${insertedId}`, {
      method: 'PATCH',
      json: { name: 'Polestar 2 LR Dual Motor', reprice: 29_900_00 },
    });
    expect(edit.status).toBe(200);
    const mine = MyListingListSchema.parse(await (await seller.get('/api/my/listings')).json());
    expect(mine[0]).toMatchObject({ name: 'Polestar 2 LR Dual Motor', reprice: 29_900_00 });
    const viaPut = await seller.request(`/api/listings/${insertedId}`, {
      method: 'PUT',
      json: { location: 'Salem, OR' },
    });
    expect(viaPut.status).toBe(200);
    const bad = await seller.request(`/api/listings/${insertedId}`, {
      method: 'PATCH',
      json: { year: 1800 },
    });
    expect(bad.status).toBe(400);
  });
});

describe('GET /api/bookedItem', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('gives a seller the bookings of their own cars only, with Sold when one is paid', async () => {
    const seller = await register(app, { role: 'Seller' });
    const { insertedId } = (await (await newCar(seller)).json()) as { insertedId: string };
    const buyer = await register(app);
    const { insertedId: bookingId } = (await (
      await buyer.post('/api/category', validBooking(insertedId))
    ).json()) as { insertedId: string };
    // A booking of another seller's car must not show.
    const demoSeller = await signInAs(app, 'seller@demo.local');
    const demoItems = (await (await demoSeller.get('/api/bookedItem')).json()) as Array<{
      _id: string;
    }>;
    expect(demoItems.map((i) => i._id)).not.toContain(bookingId);

    let items = (await (await seller.get('/api/bookedItem')).json()) as Array<{
      _id: string;
      sold: boolean;
      paid: boolean;
    }>;
    expect(items).toEqual([expect.objectContaining({ _id: bookingId, sold: false, paid: false })]);

    await app.database.db
      .update(booking)
      .set({ status: 'paid', paidAt: new Date(), transactionId: 'pi_test_1' })
      .where(eq(booking.id, bookingId));
    items = (await (await seller.get('/api/bookedItem')).json()) as typeof items;
    expect(items[0]).toMatchObject({ sold: true, paid: true });

    const admin = await signInAs(app, 'admin@demo.local');
    const all = (await (await admin.get('/api/bookedItem')).json()) as Array<{ _id: string }>;
    expect(all.map((i) => i._id)).toContain(bookingId);
    expect((await buyer.get('/api/bookedItem')).status).toBe(403);
    expect((await new TestClient(app).get('/api/bookedItem')).status).toBe(401);
  });
});

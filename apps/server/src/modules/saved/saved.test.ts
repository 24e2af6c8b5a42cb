import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_SAVED_CARS,
  MAX_SAVED_SEARCHES,
  MyListingListSchema,
  SavedCarListSchema,
  SavedSearchListSchema,
  type SearchResult,
} from '@carmarket/shared';
import { category, listing, savedCar, savedSearchMatch, user } from '../../db/schema.ts';
import { errorOf, register, TestClient } from '../../test/client.ts';
import type { TestApp } from '../../test/test-app.ts';
import type { NewCar } from './saved.test-helpers.ts';
import {
  put,
  del,
  patch,
  place,
  listCar,
  saveSearch,
  startWithSeller,
} from './saved.test-helpers.ts';

describe('saved cars', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    ({ app, seller } = await startWithSeller());
  });
  afterAll(() => app.close());

  it('saves and forgets a car idempotently, and lists it with its price then and now', async () => {
    const buyer = await register(app);
    const carId = await listCar(seller, {
      name: 'Skoda Superb',
      make: 'Skoda',
      model: 'Superb',
      reprice: 9_000_00,
      year: 2010,
    });
    for (let i = 0; i < 2; i++) {
      const saved = await put(buyer, `/api/saved-cars/${carId}`);
      expect(saved.status).toBe(200);
      expect(await saved.json()).toEqual({ listingId: carId, saved: true });
    }
    await patch(seller, `/api/listings/${carId}`, { reprice: 8_500_00 });
    const list = SavedCarListSchema.parse(await (await buyer.get('/api/saved-cars')).json());
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ listingId: carId, priceAtSaving: 9_000_00 });
    expect(list[0]!.car).toMatchObject({ reprice: 8_500_00, status: 'available' });

    // Another buyer sees none of it.
    const other = await register(app);
    expect(await (await other.get('/api/saved-cars')).json()).toEqual([]);

    // The seller sees how many saved it, not who.
    const mine = MyListingListSchema.parse(await (await seller.get('/api/my/listings')).json());
    expect(mine.find((car) => car._id === carId)?.savedCount).toBe(1);

    for (let i = 0; i < 2; i++) {
      const forgotten = await del(buyer, `/api/saved-cars/${carId}`);
      expect(forgotten.status).toBe(200);
      expect(await forgotten.json()).toEqual({ listingId: carId, saved: false });
    }
    expect(await (await buyer.get('/api/saved-cars')).json()).toEqual([]);
  });

  it('is for buyers, and only for cars on sale', async () => {
    const carId = await listCar(seller, {
      name: 'Skoda Kamiq',
      make: 'Skoda',
      model: 'Kamiq',
      reprice: 7_000_00,
      year: 1994,
    });
    expect((await put(seller, `/api/saved-cars/${carId}`)).status).toBe(403);
    expect((await put(new TestClient(app), `/api/saved-cars/${carId}`)).status).toBe(401);
    const buyer = await register(app);
    const unknown = await put(buyer, '/api/saved-cars/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    const malformed = await put(buyer, '/api/saved-cars/not-an-id');
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).field).toBe('listingId');
  });

  it(`keeps at most ${MAX_SAVED_CARS} cars per person, with a clear message`, async () => {
    const buyer = await register(app);
    const [person] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, buyer.account.email));
    const cars = await app.database.db.select({ id: listing.id }).from(listing).limit(1);
    // 500 saves of copies of one car, written straight in: the call refuses the next.
    const [template] = await app.database.db
      .select()
      .from(listing)
      .where(eq(listing.id, cars[0]!.id));
    const { id: _id, searchDoc: _doc, ...copy } = template!;
    const copies = await app.database.db
      .insert(listing)
      .values(
        Array.from({ length: MAX_SAVED_CARS }, () => ({ ...copy, status: 'available' as const })),
      )
      .returning({ id: listing.id });
    await app.database.db
      .insert(savedCar)
      .values(
        copies.map((car) => ({ userId: person!.id, listingId: car.id, priceAtSavingCents: 100 })),
      );
    const over = await put(buyer, `/api/saved-cars/${cars[0]!.id}`);
    expect(over.status).toBe(409);
    expect((await errorOf(over)).message).toMatch(/500 cars/);
    // Saving one already saved is still fine.
    expect((await put(buyer, `/api/saved-cars/${copies[0]!.id}`)).status).toBe(200);
  });
});

describe('saved searches', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    ({ app, seller } = await startWithSeller());
  });
  afterAll(() => app.close());

  it('saves, lists with counts, renames, changes alerts and deletes; each person their own', async () => {
    const buyer = await register(app);
    const id = await saveSearch(
      buyer,
      'Cheap Volvos',
      'make=Volvo&priceMax=2000000&cursor=abc&limit=5',
      'off',
    );
    const list = SavedSearchListSchema.parse(await (await buyer.get('/api/saved-searches')).json());
    expect(list).toHaveLength(1);
    // Paging is not part of a saved search.
    expect(list[0]).toMatchObject({
      _id: id,
      name: 'Cheap Volvos',
      query: 'make=Volvo&priceMax=2000000',
      alerts: 'off',
      newSinceVisit: 0,
    });
    const search = (await (
      await buyer.get('/api/listings?make=Volvo&priceMax=2000000')
    ).json()) as SearchResult;
    expect(list[0]!.matching).toBe(search.total);

    expect(
      (await patch(buyer, `/api/saved-searches/${id}`, { name: 'Volvos', alerts: 'daily' })).status,
    ).toBe(200);
    const [renamed] = SavedSearchListSchema.parse(
      await (await buyer.get('/api/saved-searches')).json(),
    );
    expect(renamed).toMatchObject({ name: 'Volvos', alerts: 'daily' });

    // Someone else's search does not exist for them.
    const other = await register(app);
    expect(await (await other.get('/api/saved-searches')).json()).toEqual([]);
    expect((await patch(other, `/api/saved-searches/${id}`, { name: 'Mine now' })).status).toBe(
      404,
    );
    expect((await del(other, `/api/saved-searches/${id}`)).status).toBe(404);

    expect((await del(buyer, `/api/saved-searches/${id}`)).status).toBe(200);
    expect(await (await buyer.get('/api/saved-searches')).json()).toEqual([]);
  });

  it('refuses a query the search call would refuse, naming the field', async () => {
    const buyer = await register(app);
    for (const query of ['yearMin=2020&yearMax=2010', 'fuel=steam', 'near=abc', 'radiusKm=10']) {
      const response = await buyer.post('/api/saved-searches', {
        name: 'Bad',
        query,
        alerts: 'off',
      });
      expect(response.status, query).toBe(400);
      expect((await errorOf(response)).field).toBe('query');
    }
    const badAlerts = await buyer.post('/api/saved-searches', {
      name: 'A',
      query: '',
      alerts: 'hourly',
    });
    expect(badAlerts.status).toBe(400);
    expect((await errorOf(badAlerts)).field).toBe('alerts');
    expect((await buyer.post('/api/saved-searches', { name: '', query: '' })).status).toBe(400);
    expect((await seller.post('/api/saved-searches', { name: 'S', query: '' })).status).toBe(403);
  });

  it(`keeps at most ${MAX_SAVED_SEARCHES} searches per person, with a clear message`, async () => {
    const buyer = await register(app);
    for (let i = 0; i < MAX_SAVED_SEARCHES; i++)
      await saveSearch(buyer, `Search ${i}`, `yearMin=${1990 + i}`, 'off');
    const over = await buyer.post('/api/saved-searches', { name: 'One more', query: 'make=BMW' });
    expect(over.status).toBe(409);
    expect((await errorOf(over)).message).toMatch(/50 saved searches/);
  });

  it('holds the limit when the last few saves race', async () => {
    const buyer = await register(app);
    for (let i = 0; i < MAX_SAVED_SEARCHES - 3; i++)
      await saveSearch(buyer, `Search ${i}`, `yearMin=${1990 + i}`, 'off');
    const racing = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        buyer.post('/api/saved-searches', { name: `Racer ${i}`, query: `yearMax=${2000 + i}` }),
      ),
    );
    expect(racing.map((response) => response.status).sort()).toEqual([
      200, 200, 200, 409, 409, 409, 409, 409,
    ]);
    const list = SavedSearchListSchema.parse(await (await buyer.get('/api/saved-searches')).json());
    expect(list).toHaveLength(MAX_SAVED_SEARCHES);
  });

  it('matches new cars exactly as the search call finds them', async () => {
    const buyer = await register(app);
    const austin = place('Austin, TX');
    const queries = {
      make: 'make=Toyota',
      makeModel: 'make=Toyota&model=Corolla',
      twoMakes: 'make=Kia&make=Toyota&priceMax=1500000',
      price: 'priceMin=1000000&priceMax=2000000',
      years: 'yearMin=2015&yearMax=2019&mileageMax=60000',
      typo: 'q=toyta%20corola',
      text: 'q=hatchback',
      near: `near=${austin.id}&radiusKm=50`,
      body: 'bodyType=SUV&fuel=electric',
      gearbox: 'transmission=manual&condition=Excellent',
      category: '',
      anything: 'sort=price_asc',
    };
    const [electric] = await app.database.db
      .select()
      .from(category)
      .where(eq(category.name, 'Electric car'));
    (queries as Record<string, string>).category = `category=${electric!.id}`;
    const ids = Object.fromEntries(
      await Promise.all(
        Object.entries(queries).map(
          async ([key, query]) => [key, await saveSearch(buyer, key, query)] as const,
        ),
      ),
    );
    const cars: NewCar[] = [
      {
        name: 'Toyota Corolla',
        make: 'Toyota',
        model: 'Corolla',
        reprice: 14_000_00,
        year: 2017,
        mileageKm: 50_000,
        placeId: place('Round Rock, TX').id,
      },
      {
        name: 'Toyota RAV4',
        make: 'Toyota',
        model: 'RAV4',
        reprice: 25_000_00,
        year: 2021,
        bodyType: 'SUV',
        fuel: 'electric',
        category: 'Electric car',
      },
      {
        name: 'Kia Rio hatchback',
        make: 'Kia',
        model: 'Rio',
        reprice: 9_000_00,
        year: 2016,
        mileageKm: 80_000,
        transmission: 'manual',
        condition: 'Excellent',
        describe: 'A small hatchback.',
      },
      {
        name: 'Ford Focus',
        make: 'Ford',
        model: 'Focus',
        reprice: 12_000_00,
        year: 2018,
        mileageKm: 30_000,
        placeId: place('Dallas, TX').id,
      },
      {
        name: 'BMW X5',
        make: 'BMW',
        model: 'X5',
        reprice: 45_000_00,
        year: 2020,
        bodyType: 'SUV',
        fuel: 'diesel',
        placeId: austin.id,
      },
    ];
    const newIds = await Promise.all(cars.map((car) => listCar(seller, car)));
    expect((await app.runAlerts()).matched).toBe(cars.length);

    for (const [key, query] of Object.entries(queries)) {
      const found = (await (
        await buyer.get(`/api/listings?${query}&limit=48`)
      ).json()) as SearchResult;
      const expected = found.items
        .map((car) => car._id)
        .filter((id) => newIds.includes(id))
        .sort();
      const matched = (
        await app.database.db
          .select({ id: savedSearchMatch.listingId })
          .from(savedSearchMatch)
          .where(eq(savedSearchMatch.searchId, ids[key]!))
      )
        .map((row) => row.id)
        .sort();
      expect(matched, key).toEqual(expected);
    }
    // Not a vacuous check: the mix finds each car somewhere, and not every search finds all.
    const all = await app.database.db
      .select({ id: savedSearchMatch.listingId })
      .from(savedSearchMatch)
      .where(inArray(savedSearchMatch.searchId, Object.values(ids)));
    expect(new Set(all.map((row) => row.id))).toEqual(new Set(newIds));
    expect(all.length).toBeLessThan(newIds.length * Object.keys(ids).length);
  });
});

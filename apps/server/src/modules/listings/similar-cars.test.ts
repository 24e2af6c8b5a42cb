import { SimilarCarsSchema } from '@carmarket/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listing } from '../../db/schema.ts';
import { register, TestClient } from '../../test/client.ts';
import { newCar } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * `GET /api/listings/:id/similar` (issue 32): at most 8 cars on sale, never the car itself, the
 * same make and model first, then the same body type near its price and year.
 */
describe('similar cars', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { BROWSE_SIGNED_OUT: 'true' } });
  });
  afterAll(() => app.close());

  /*
   * The test's cars are in New Zealand dollars and of a make no demo car has: the demo cars (in
   * US dollars) share neither their model nor, in the same currency, their body type.
   */
  async function car(
    fields: { model: string; price: number; year: number; bodyType?: string | null },
    status: 'available' | 'sold' | 'withdrawn' | 'removed' = 'available',
  ) {
    const made = await newCar(app, { repriceCents: fields.price });
    await app.database.db
      .update(listing)
      .set({
        make: 'Testmark',
        model: fields.model,
        bodyType: fields.bodyType === undefined ? 'Pickup' : fields.bodyType,
        year: fields.year,
        currency: 'NZD',
        status,
      })
      .where(eq(listing.id, made.id));
    return made.id;
  }

  const similarTo = async (client: TestClient, id: string) => {
    const response = await client.get(`/api/listings/${id}/similar`);
    expect(response.status).toBe(200);
    return SimilarCarsSchema.parse(await response.json()).items;
  };

  it('offers a sold car the same model first, then the same body type nearest in price and year: on sale, never itself, at most 8', async () => {
    const shown = await car({ model: 'Alpha', price: 2_000_000, year: 2020 }, 'sold');
    const sameModel = [
      await car({ model: 'Alpha', price: 4_000_000, year: 2012 }),
      await car({ model: 'Alpha', price: 2_100_000, year: 2020 }),
      await car({ model: 'Alpha', price: 1_000_000, year: 2015, bodyType: 'Sedan' }),
    ];
    // Neither sold, withdrawn nor removed cars are offered.
    await car({ model: 'Alpha', price: 2_000_000, year: 2020 }, 'sold');
    await car({ model: 'Alpha', price: 2_000_000, year: 2020 }, 'withdrawn');
    await car({ model: 'Beta', price: 2_000_000, year: 2020 }, 'removed');
    // Another model of the same body type, nearest in price and year first.
    const nearest = await car({ model: 'Beta', price: 2_050_000, year: 2020 });
    const nearInPrice = await car({ model: 'Gamma', price: 1_900_000, year: 2019 });
    const olderAndCheaper = await car({ model: 'Beta', price: 1_500_000, year: 2016 });
    const dearer = await car({ model: 'Gamma', price: 3_500_000, year: 2021 });
    const far = await car({ model: 'Beta', price: 9_000_000, year: 2024 });
    const farther = await car({ model: 'Beta', price: 300_000, year: 2001 });
    // Another body type is not similar.
    await car({ model: 'Delta', price: 2_000_000, year: 2020, bodyType: 'Coupe' });

    const buyer = await register(app);
    const items = await similarTo(buyer, shown);
    expect(items).toHaveLength(8);
    expect(items.map((item) => item._id)).not.toContain(shown);
    for (const item of items) expect(item.status).toBe('available');
    // The same model first, nearest first: 2,100,000 in 2020, then 1,000,000 in 2015 and
    // 4,000,000 in 2012 (|ln 0.5| + 0.5 = 1.19 against |ln 2| + 0.8 = 1.49).
    expect(items.slice(0, 3).map((item) => item._id)).toEqual([
      sameModel[1],
      sameModel[2],
      sameModel[0],
    ]);
    expect(items.slice(3).map((item) => item._id)).toEqual([
      nearest,
      nearInPrice,
      dearer,
      olderAndCheaper,
      far,
    ]);
    expect(items.map((item) => item._id)).not.toContain(farther);
    // One card shape, the search's and the home page's (decision 013).
    expect(items[0]).toMatchObject({ make: 'Testmark', model: 'Alpha', dealRating: null });

    // A visitor where browsing is open sees the same.
    expect(await similarTo(new TestClient(app), shown)).toEqual(items);
  });

  it('never offers the car itself, and offers a car on sale its like too', async () => {
    const shown = await car({ model: 'Epsilon', price: 700_000, year: 2010, bodyType: 'Van' });
    const other = await car({ model: 'Epsilon', price: 720_000, year: 2011, bodyType: 'Van' });
    const buyer = await register(app);
    const items = await similarTo(buyer, shown);
    expect(items.map((item) => item._id)).toEqual([other]);
    expect(await similarTo(buyer, other)).toEqual([
      expect.objectContaining({ _id: shown, status: 'available' }),
    ]);
  });

  it('offers a car without a body type the cars of its category near its price', async () => {
    const shown = await car({ model: 'Zeta', price: 5_000_000, year: 2018, bodyType: null });
    const [shownRow] = await app.database.db
      .select({ categoryId: listing.categoryId })
      .from(listing)
      .where(eq(listing.id, shown));
    const categoryId = shownRow!.categoryId;
    const sameCategory = await car({ model: 'Eta', price: 5_100_000, year: 2018, bodyType: 'Van' });
    const elsewhere = await car({ model: 'Theta', price: 5_000_000, year: 2018, bodyType: null });
    const [other] = await app.database.db
      .select({ id: listing.categoryId })
      .from(listing)
      .where(sql`${listing.categoryId} <> ${categoryId}`)
      .limit(1);
    await app.database.db
      .update(listing)
      .set({ categoryId: other!.id })
      .where(eq(listing.id, elsewhere));
    const items = await similarTo(await register(app), shown);
    expect(items.map((item) => item._id)).toContain(sameCategory);
    expect(items.map((item) => item._id)).not.toContain(elsewhere);
  });

  it('answers 404 for a car that does not exist, and 400 for an id that cannot be one', async () => {
    const buyer = await register(app);
    expect(
      (await buyer.get('/api/listings/0d7c0a1e-2a52-4c51-9b0b-7f6f2a1d9e10/similar')).status,
    ).toBe(404);
    expect((await buyer.get('/api/listings/xyz/similar')).status).toBe(400);
  });
});

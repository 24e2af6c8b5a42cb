import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListingDetailSchema } from '@carmarket/shared';
import { listing } from '../../db/schema.ts';
import { register, type TestClient } from '../../test/client.ts';
import { demoListings } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { lockCar } from './lifecycle.ts';
import { newCar } from './listings.test-helpers.ts';
import { recordRepricing } from './price-history.ts';

/*
 * Issue 31, part 3: the car page's time on the market and price history. `GET /api/listings/:id`
 * carries `listedAt` and `priceHistory`, every asking price the car has had, oldest first, the
 * current price last.
 */

describe('GET /api/listings/:id: price history and time on the market', () => {
  let app: TestApp;
  let seller: TestClient;
  let buyer: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    seller = await register(app, { role: 'Seller' });
    buyer = await register(app);
  });
  afterAll(() => app.close());

  async function listed(name: string, reprice: number): Promise<string> {
    const response = await newCar(seller, { name, reprice });
    expect(response.status).toBe(200);
    return ((await response.json()) as { insertedId: string }).insertedId;
  }

  const carPage = async (carId: string) => {
    const response = await buyer.get(`/api/listings/${carId}`);
    expect(response.status).toBe(200);
    return ListingDetailSchema.parse(await response.json());
  };

  const reprice = async (carId: string, price: number) => {
    const response = await seller.request(`/api/listings/${carId}`, {
      method: 'PUT',
      json: { reprice: price },
    });
    expect(response.status).toBe(200);
  };

  it('answers one entry, its listing price, for a car just listed, and when it was listed', async () => {
    const before = Date.now();
    const carId = await listed('Price History Ioniq', 24_900_00);
    const car = await carPage(carId);
    expect(car.priceHistory).toEqual([{ price: 24_900_00, at: car.listedAt }]);
    expect(car.listedAt).toBe(car.createdAt);
    // Whole milliseconds: the database's clock and this one may round apart by one.
    expect(Date.parse(car.listedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(car.listedAt)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('adds one entry per change of price, in order, the current price last', async () => {
    const carId = await listed('Price History Leaf', 21_000_00);
    await reprice(carId, 19_500_00);
    await reprice(carId, 20_250_00);
    const car = await carPage(carId);
    expect(car.priceHistory.map((entry) => entry.price)).toEqual([21_000_00, 19_500_00, 20_250_00]);
    expect(car.reprice).toBe(20_250_00);
    const times = car.priceHistory.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(car.priceHistory[0]!.at).toBe(car.listedAt);
    // The changes are not when it was listed.
    expect(car.listedAt).toBe(car.createdAt);
  });

  it('adds nothing for an edit that sends the same price again, nor for other edits', async () => {
    const carId = await listed('Price History Zoe', 15_000_00);
    await reprice(carId, 15_000_00);
    const edited = await seller.request(`/api/listings/${carId}`, {
      method: 'PUT',
      json: { reprice: 15_000_00, mileageKm: 31_000, describe: 'Now with winter tyres.' },
    });
    expect(edited.status).toBe(200);
    const car = await carPage(carId);
    expect(car.priceHistory).toEqual([{ price: 15_000_00, at: car.listedAt }]);
  });

  it('keeps the first listing time when a withdrawn car is put back on sale', async () => {
    const carId = await listed('Price History Kona', 27_000_00);
    const { listedAt } = await carPage(carId);
    expect((await seller.post(`/api/listings/${carId}/withdraw`)).status).toBe(200);
    await reprice(carId, 25_500_00);
    expect((await seller.post(`/api/listings/${carId}/relist`)).status).toBe(200);
    const car = await carPage(carId);
    expect(car.listedAt).toBe(listedAt);
    expect(car.priceHistory.map((entry) => entry.price)).toEqual([27_000_00, 25_500_00]);
  });

  it("starts a seeded demo car's history at its asking price when it was listed", async () => {
    const [demo] = await demoListings(app);
    const car = await carPage(demo!.id);
    expect(car.priceHistory).toEqual([{ price: demo!.repriceCents, at: car.listedAt }]);
  });
});

/*
 * Two edits of one car's price at once. Each takes the car's lock, so they change the price one
 * after the other; but the edit that began first may take the lock second. PostgreSQL only: PGlite
 * runs one transaction at a time.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two changes of price at once', () => {
  let app: TestApp;
  let seller: TestClient;
  let buyer: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    seller = await register(app, { role: 'Seller' });
    buyer = await register(app);
  });
  afterAll(() => app.close());

  it('ends with the price the car asks now, when the edit that began first commits last', async () => {
    const created = await newCar(seller, { name: 'Price History Niro', reprice: 22_000_00 });
    expect(created.status).toBe(200);
    const { insertedId: carId } = (await created.json()) as { insertedId: string };

    // An edit begins, and before it takes the car's lock another edit changes the price and
    // commits; then the first takes the lock and changes the price as seller.service.ts does.
    await app.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      const other = await seller.request(`/api/listings/${carId}`, {
        method: 'PUT',
        json: { reprice: 21_000_00 },
      });
      expect(other.status).toBe(200);
      const car = await lockCar(tx, carId);
      expect(car!.repriceCents).toBe(21_000_00);
      await tx.update(listing).set({ repriceCents: 20_500_00 }).where(eq(listing.id, carId));
      await recordRepricing(tx, carId, car!.repriceCents, 20_500_00);
    });

    const response = await buyer.get(`/api/listings/${carId}`);
    expect(response.status).toBe(200);
    const car = ListingDetailSchema.parse(await response.json());
    expect(car.reprice).toBe(20_500_00);
    expect(car.priceHistory.map((entry) => entry.price)).toEqual([22_000_00, 21_000_00, 20_500_00]);
  });
});

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ListingDetailSchema,
  SavedCarListSchema,
  SearchResultSchema,
  type DealRating,
} from '@carmarket/shared';
import { queryRows } from '../../db/client.ts';
import { listingDeal, priceGuideFit } from '../../db/schema.ts';
import { priceGuideJob } from '../../jobs/price-guide.ts';
import { errorOf, register, TestClient } from '../../test/client.ts';
import { payFor, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { newCar } from '../listings/listings.test-helpers.ts';
import { seedMarket } from './price-guide.test-helpers.ts';

/*
 * Issue 31, parts 1, 2 and 4: a price guide fitted on a known market (30 cars of one model,
 * priced by age and mileage), the deal rating on cards and the car page, and the seller's guide.
 */

describe('price guide and deal rating', () => {
  let app: TestApp;
  let seller: TestClient;
  let buyer: TestClient;
  let market: Awaited<ReturnType<typeof seedMarket>>;
  const year = new Date().getFullYear() - 4;
  const mileageKm = 60_000;

  beforeAll(async () => {
    app = await startTestApp();
    seller = await register(app, { role: 'Seller' });
    buyer = await register(app);
    market = await seedMarket(app);
    await app.runPriceGuide();
  });
  afterAll(() => app.close());

  /** Lists a car of the market's model at `share` of its true price; answers its id. */
  async function carAt(share: number, overrides: Record<string, unknown> = {}) {
    const response = await newCar(seller, {
      name: `${market.make} ${market.model} at ${share}`,
      make: market.make,
      model: market.model,
      bodyType: market.bodyType,
      year,
      mileageKm,
      reprice: Math.round(market.priceOf(year, mileageKm) * share),
      ...overrides,
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { insertedId: string }).insertedId;
  }

  const dealRow = async (carId: string) =>
    (await app.database.db.select().from(listingDeal).where(eq(listingDeal.listingId, carId)))[0];

  /** The rating kept on the car's row, and the row's version (xmin: changes when it is written). */
  const carRow = async (carId: string) =>
    (
      await queryRows<{ rating: DealRating | null; version: string }>(
        app.database.db,
        sql`select deal_rating as rating, xmin::text as version from listing where id = ${carId}`,
      )
    )[0];
  const ratingOnCar = async (carId: string) => (await carRow(carId))?.rating;

  const detail = async (carId: string) =>
    ListingDetailSchema.parse(await (await buyer.get(`/api/listings/${carId}`)).json());

  async function cardRatings(): Promise<Map<string, DealRating | null>> {
    const response = await buyer.get(
      `/api/listings?make=${market.make}&model=${market.model}&limit=48`,
    );
    expect(response.status).toBe(200);
    const page = SearchResultSchema.parse(await response.json());
    return new Map(page.items.map((card) => [card._id, card.dealRating]));
  }

  it('rates a car listed after the fit at once: 30 % under great, 35 % over overpriced', async () => {
    const great = await carAt(0.7);
    const fair = await carAt(1);
    const overpriced = await carAt(1.35);
    // No refresh ran since they were listed: each was rated from the last fit as it was listed.
    const cards = await cardRatings();
    expect(cards.get(great)).toBe('great');
    expect(cards.get(fair)).toBe('fair');
    expect(cards.get(overpriced)).toBe('overpriced');
    // The market's own cars are rated by the refresh.
    const rated = market.carIds.filter(
      (id) => cards.get(id) !== null && cards.get(id) !== undefined,
    );
    expect(rated.length).toBeGreaterThanOrEqual(20);

    // A refresh (the new cars now among the comparables) keeps their ratings.
    expect((await app.runPriceGuide()).refreshed).toBe(true);
    const again = await cardRatings();
    expect([again.get(great), again.get(fair), again.get(overpriced)]).toEqual([
      'great',
      'fair',
      'overpriced',
    ]);
  });

  it('gives the car page the fair price, its band and the comparables', async () => {
    const carId = await carAt(1);
    const { priceGuide, dealRating } = await detail(carId);
    const truth = market.priceOf(year, mileageKm);
    expect(priceGuide).not.toBeNull();
    expect(priceGuide!.rating).toBe('fair');
    expect(dealRating).toBe('fair');
    expect(Math.abs(priceGuide!.fair / truth - 1)).toBeLessThan(0.05);
    expect(priceGuide!.low).toBeLessThan(priceGuide!.fair);
    expect(priceGuide!.high).toBeGreaterThan(priceGuide!.fair);
    expect(priceGuide!.comparables).toBeGreaterThanOrEqual(30);
  });

  it('rates a car again when its price or mileage changes', async () => {
    const carId = await carAt(1);
    expect((await detail(carId)).dealRating).toBe('fair');
    const reprice = Math.round(market.priceOf(year, mileageKm) * 0.7);
    const edit = (changes: Record<string, unknown>) =>
      seller.request(`/api/listings/${carId}`, { method: 'PATCH', json: changes });
    expect((await edit({ reprice })).status).toBe(200);
    expect((await detail(carId)).dealRating).toBe('great');
    // Far more miles: the same price is now well over what such a car fetches.
    expect((await edit({ mileageKm: 200_000 })).status).toBe(200);
    expect((await detail(carId)).dealRating).toBe('overpriced');
  });

  it('shows the rating on a saved car while it is on sale, not once it is withdrawn', async () => {
    const buyerOfOne = await register(app);
    const carId = await carAt(0.7);
    expect((await buyerOfOne.request(`/api/saved-cars/${carId}`, { method: 'PUT' })).status).toBe(
      200,
    );
    const saved = async () =>
      SavedCarListSchema.parse(await (await buyerOfOne.get('/api/saved-cars')).json()).find(
        (entry) => entry.listingId === carId,
      );
    expect((await saved())?.car.dealRating).toBe('great');
    const greatDeals = async () => {
      const response = await buyer.get(
        `/api/listings?make=${market.make}&model=${market.model}&deal=great&limit=48&facets=1`,
      );
      expect(response.status).toBe(200);
      return SearchResultSchema.parse(await response.json());
    };
    const greatBefore = (await greatDeals()).facets?.deal.find((v) => v.value === 'great')?.count;
    expect((await seller.post(`/api/listings/${carId}/withdraw`)).status).toBe(200);
    expect((await saved())?.car.dealRating).toBeNull();
    // Withdrawn, it is found under no rating, nor counted, though it keeps its rating until ...
    const withdrawn = await greatDeals();
    expect(withdrawn.items.map((card) => card._id)).not.toContain(carId);
    expect(withdrawn.facets?.deal.find((v) => v.value === 'great')?.count).toBe(greatBefore! - 1);
    // ... the next refresh, which drops its row and its rating (withdrawing publishes no event).
    await app.runPriceGuide();
    expect(await dealRow(carId)).toBeUndefined();
    expect(await ratingOnCar(carId)).toBeNull();
    expect((await greatDeals()).items.map((card) => card._id)).not.toContain(carId);
    // Back on sale, it is rated again at once.
    expect((await seller.post(`/api/listings/${carId}/relist`)).status).toBe(200);
    expect((await saved())?.car.dealRating).toBe('great');
  });

  it("writes a car's row when its rating changes, not when only its fair price moves", async () => {
    const carId = await carAt(0.7);
    const before = await carRow(carId);
    expect(before?.rating).toBe('great');
    // The new car joins the comparables: the fit and its fair price move, its rating does not.
    const fairBefore = (await dealRow(carId))?.fairCents;
    await app.runPriceGuide();
    expect((await dealRow(carId))?.fairCents).not.toBe(fairBefore);
    expect(await carRow(carId)).toEqual(before);
    const reprice = Math.round(market.priceOf(year, mileageKm) * 1.35);
    expect(
      (await seller.request(`/api/listings/${carId}`, { method: 'PATCH', json: { reprice } }))
        .status,
    ).toBe(200);
    expect(await ratingOnCar(carId)).toBe('overpriced');
  });

  it('forgets the rating of a car once it is sold', async () => {
    const buyerOfOne = await register(app);
    const carId = await carAt(0.7);
    expect((await buyerOfOne.request(`/api/saved-cars/${carId}`, { method: 'PUT' })).status).toBe(
      200,
    );
    const booked = await buyerOfOne.post('/api/category', validBooking(carId));
    const { insertedId: bookingId } = (await booked.json()) as { insertedId: string };
    await payFor(buyerOfOne, bookingId);
    const saved = SavedCarListSchema.parse(
      await (await buyerOfOne.get('/api/saved-cars')).json(),
    ).find((entry) => entry.listingId === carId);
    expect(saved?.car.status).toBe('sold');
    expect(saved?.car.dealRating).toBeNull();
    expect(await dealRow(carId)).toBeUndefined();
    expect(await ratingOnCar(carId)).toBeNull();
  });

  it('gives no rating when too few comparable cars exist', async () => {
    const response = await newCar(seller, {
      name: 'Mazda MX-5 alone',
      make: 'Mazda',
      model: 'MX-5',
      bodyType: null,
      year,
      mileageKm,
    });
    const { insertedId } = (await response.json()) as { insertedId: string };
    await app.runPriceGuide();
    const car = await detail(insertedId);
    expect(car.dealRating).toBeNull();
    expect(car.priceGuide).toBeNull();
    const guide = await seller.get(`/api/price-guide?make=Mazda&model=MX-5&year=${year}`);
    expect(guide.status).toBe(404);
    expect((await errorOf(guide)).message).toBe('Not enough similar cars to rate this price.');
  });

  it('refreshes once an interval, however many processes run the job', async () => {
    const job = priceGuideJob(app.database.db, 60 * 60_000);
    await app.database.db.update(priceGuideFit).set({ fittedAt: sql`now() - interval '2 hours'` });
    // Two processes' timers at once: one refreshes; the other finds the lock taken or, once it
    // is free, fits younger than the interval.
    const runs = await Promise.all([job.run(), job.run()]);
    expect(runs.map((run) => run.refreshed).sort()).toEqual([false, true]);
    expect((await job.run()).refreshed).toBe(false);
  });

  describe('GET /api/price-guide', () => {
    it("answers a seller's car's fair price and band from its model's fit", async () => {
      const response = await seller.get(
        `/api/price-guide?make=${market.make}&model=${market.model}&year=${year}&mileageKm=${mileageKm}`,
      );
      expect(response.status).toBe(200);
      const guide = (await response.json()) as Record<string, number>;
      expect(Object.keys(guide).sort()).toEqual(['comparables', 'fair', 'high', 'low']);
      expect(Math.abs(guide.fair! / market.priceOf(year, mileageKm) - 1)).toBeLessThan(0.05);
      expect(guide.low).toBeLessThan(guide.fair!);
      expect(guide.high).toBeGreaterThan(guide.fair!);
    });

    it("falls back to the make and body type's cars for a model with few", async () => {
      // One Forester; the Subaru estates (the market) stand in for its model.
      const response = await seller.get(
        `/api/price-guide?make=Subaru&model=Forester&year=${year}&mileageKm=${mileageKm}&bodyType=Estate`,
      );
      expect(response.status).toBe(200);
      const without = await seller.get(
        `/api/price-guide?make=Subaru&model=Forester&year=${year}&mileageKm=${mileageKm}`,
      );
      expect(without.status).toBe(404);
    });

    it('answers 401 signed out and 400 naming the field for bad input', async () => {
      const anonymous = new TestClient(app);
      expect(
        (await anonymous.get(`/api/price-guide?make=Subaru&model=Outback&year=${year}`)).status,
      ).toBe(401);
      for (const [query, field] of [
        [`make=Subaru&model=Outback&year=soon`, 'year'],
        [`make=Nope&model=Outback&year=${year}`, 'make'],
        [`make=Subaru&model=Golf&year=${year}`, 'model'],
        [`make=Subaru&model=Outback&year=${year}&mileageKm=-5`, 'mileageKm'],
        [`make=Subaru&model=Outback`, 'year'],
      ] as const) {
        const response = await seller.get(`/api/price-guide?${query}`);
        expect(response.status, query).toBe(400);
        expect((await errorOf(response)).field, query).toBe(field);
      }
    });
  });
});

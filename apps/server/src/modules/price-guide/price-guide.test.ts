import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ListingDetailSchema,
  SavedCarListSchema,
  SearchResultSchema,
  type DealRating,
} from '@carmarket/shared';
import { queryRows } from '../../db/client.ts';
import { listing, listingDeal, priceGuideFit } from '../../db/schema.ts';
import { priceGuideJob } from '../../jobs/price-guide.ts';
import { errorOf, register, TestClient } from '../../test/client.ts';
import { payFor, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { newCar } from '../listings/listings.test-helpers.ts';
import { rateCars } from './price-guide.service.ts';
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

  it('rates by the typical range the page draws: outside it great or overpriced, never inside', async () => {
    const { priceGuide } = await detail(await carAt(1));
    const { low, high } = priceGuide!;
    // Cars like it at the range's ends and a cent beyond (no refresh: the same fit rates them).
    const ratingAt = async (cents: number) => {
      const car = await detail(await carAt(1, { reprice: cents }));
      expect([car.priceGuide!.low, car.priceGuide!.high]).toEqual([low, high]);
      return car.dealRating;
    };
    expect(await ratingAt(low - 1)).toBe('great');
    expect(await ratingAt(low)).toBe('good');
    expect(await ratingAt(high)).toBe('high');
    expect(await ratingAt(high + 1)).toBe('overpriced');
    // The middle third of the range (in log price) is fair.
    expect(await ratingAt(priceGuide!.fair)).toBe('fair');
  });

  it("takes the body type most of a model's cars have when a car or a seller gives none", async () => {
    // Two Imprezas, too few for their model: the Subaru estates (the market) stand in for it.
    // Their model's usual body type is what the refresh found.
    await seedMarket(app, { make: 'Subaru', model: 'Impreza', bodyType: 'Estate', count: 2 });
    await app.runPriceGuide();
    const query = `make=Subaru&model=Impreza&year=${year}&mileageKm=${mileageKm}`;
    const withBody = await seller.get(`/api/price-guide?${query}&bodyType=Estate`);
    const without = await seller.get(`/api/price-guide?${query}`);
    expect(withBody.status).toBe(200);
    expect(without.status).toBe(200);
    const guide = (await withBody.json()) as Record<string, number>;
    expect(guide.comparables).toBeGreaterThanOrEqual(30);
    expect(await without.json()).toEqual(guide);
    // A listed Impreza without a body type is rated from the same group.
    const carId = await carAt(1, { model: 'Impreza', bodyType: null });
    expect((await detail(carId)).priceGuide).toMatchObject(guide);
  });

  it("answers a guide without a body type as with its model's usual one, as cars change it", async () => {
    // Mazda's SUVs and sedans each have a fit; the Mazda3 has too few cars for one of its own.
    await seedMarket(app, { make: 'Mazda', model: 'CX-5', bodyType: 'SUV', count: 12 });
    await seedMarket(app, {
      make: 'Mazda',
      model: 'Mazda6',
      bodyType: 'Sedan',
      count: 12,
      baseCents: 25_000_00,
    });
    await seedMarket(app, { make: 'Mazda', model: 'Mazda3', bodyType: 'Sedan', count: 2 });
    await app.runPriceGuide();
    const query = `make=Mazda&model=Mazda3&year=${year}&mileageKm=${mileageKm}`;
    const guide = async (bodyType?: string) => {
      const response = await seller.get(
        `/api/price-guide?${query}${bodyType ? `&bodyType=${bodyType}` : ''}`,
      );
      expect(response.status).toBe(200);
      return (await response.json()) as Record<string, number>;
    };
    const sedan = await guide('Sedan');
    const suv = await guide('SUV');
    expect(sedan).not.toEqual(suv);
    expect(await guide()).toEqual(sedan);
    // Three Mazda3 SUVs outnumber its two sedans: from the next refresh its usual body is SUV.
    await seedMarket(app, { make: 'Mazda', model: 'Mazda3', bodyType: 'SUV', count: 3 });
    await app.runPriceGuide();
    expect(await guide()).toEqual(await guide('SUV'));
    expect(await guide()).not.toEqual(await guide('Sedan'));
    // A Mazda3 listed without a body type is rated from the SUVs too.
    const carId = await carAt(1, { make: 'Mazda', model: 'Mazda3', bodyType: null });
    const { rating: _rating, ...listed } = (await detail(carId)).priceGuide!;
    expect(listed).toEqual(await guide('SUV'));
  });

  it("answers the seller's guide exactly as the page of a listed car with the same fields", async () => {
    for (const fields of [
      { year, mileageKm },
      { year: year - 3, mileageKm: 150_000 },
      { year: year + 2 },
    ]) {
      const carId = await carAt(1, { ...fields, mileageKm: fields.mileageKm ?? null });
      const { priceGuide } = await detail(carId);
      const query = new URLSearchParams({
        make: market.make,
        model: market.model,
        bodyType: market.bodyType,
        year: String(fields.year),
        ...(fields.mileageKm ? { mileageKm: String(fields.mileageKm) } : {}),
      });
      const response = await seller.get(`/api/price-guide?${query}`);
      expect(response.status).toBe(200);
      const { rating: _rating, ...guide } = priceGuide!;
      expect(await response.json()).toEqual(guide);
    }
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

/*
 * A seller's change and a refresh at once. The change (its transaction begun, and its updated_at
 * set, before the refresh) rates the car at its new price and commits while the refresh runs,
 * after the refresh worked out every car's rating at the old price. PostgreSQL only: PGlite runs
 * one transaction at a time.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('a refresh while a seller changes a car', () => {
  let app: TestApp;
  let seller: TestClient;
  let buyer: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    seller = await register(app, { role: 'Seller' });
    buyer = await register(app);
  });
  afterAll(() => app.close());

  it("keeps the rating of the car's new price, not the one the refresh worked out", async () => {
    const market = await seedMarket(app, { make: 'Kia', model: 'Ceed', bodyType: 'Hatchback' });
    await app.runPriceGuide();
    const year = new Date().getFullYear() - 4;
    const truth = market.priceOf(year, 60_000);
    const created = await newCar(seller, {
      name: 'Kia Ceed repriced during a refresh',
      make: 'Kia',
      model: 'Ceed',
      bodyType: 'Hatchback',
      year,
      mileageKm: 60_000,
      reprice: Math.round(truth * 1.35),
    });
    const { insertedId: carId } = (await created.json()) as { insertedId: string };
    const db = app.database.db;
    let refresh: ReturnType<TestApp['runPriceGuide']> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      // The seller's change, as the car's subscriber rates it: in the change's transaction.
      await tx
        .update(listing)
        .set({ repriceCents: Math.round(truth * 0.7), updatedAt: sql`now()` })
        .where(eq(listing.id, carId));
      await rateCars(tx, [carId]);
      // The refresh (the new car among its comparables: every fair price moves) waits for the
      // car's rows, which this transaction holds.
      refresh = app.runPriceGuide();
      for (;;) {
        const [waiting] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (waiting!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    expect((await refresh!).refreshed).toBe(true);
    const car = ListingDetailSchema.parse(await (await buyer.get(`/api/listings/${carId}`)).json());
    expect(car.priceGuide?.rating).toBe('great');
    expect(car.dealRating).toBe('great');
  });
});

import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEAL_RATINGS, SavedSearchListSchema, type DealRating } from '@carmarket/shared';
import { listing, listingDeal } from '../../db/schema.ts';
import { errorOf, signInAs, type TestClient } from '../../test/client.ts';
import type { TestApp } from '../../test/test-app.ts';
import { seedMarket } from '../price-guide/price-guide.test-helpers.ts';
import {
  buyerWithMail,
  listCar,
  mailTo,
  saveSearch,
  startWithSeller,
} from '../saved/saved.test-helpers.ts';
import { searchingAs } from './search.test-helpers.ts';

/** What share of its market's price a car of each rating is listed at here. */
const SHARE: Record<DealRating, number> = {
  great: 0.7,
  good: 0.9,
  fair: 1,
  high: 1.1,
  overpriced: 1.35,
};

/** Three known markets the price guide fits, and the cars listed against them. */
const MARKETS = [
  { make: 'Mazda', model: 'MX-5', bodyType: 'Convertible' },
  { make: 'Skoda', model: 'Octavia', bodyType: 'Estate' },
  { make: 'Volvo', model: 'V60', bodyType: 'Estate' },
];
/** The market of the saved search's new cars. */
const SUBARU = { make: 'Subaru', model: 'Outback', bodyType: 'Estate' };

describe('the deal filter, facet and sort (GET /api/listings)', () => {
  let app: TestApp;
  let seller: TestClient;
  let buyer: TestClient;
  /** Every car on sale with its rating (null: no price guide), read back from the database. */
  let cars: { id: string; make: string; rating: DealRating | null; ratio: number | null }[];

  async function readCars() {
    const db = app.database.db;
    const onSale = await db
      .select({ id: listing.id, make: listing.make, status: listing.status })
      .from(listing)
      .where(inArray(listing.status, ['available', 'reserved']));
    const deals = await db.select().from(listingDeal);
    cars = onSale.map((car) => {
      const deal = deals.find((d) => d.listingId === car.id);
      return {
        id: car.id,
        make: car.make,
        rating: deal?.rating ?? null,
        ratio: deal?.ratio ?? null,
      };
    });
  }

  /** The market's price of a car like those listed here, by make. */
  const priceOf = new Map<string, (year: number, mileageKm: number) => number>();
  const thisYear = new Date().getFullYear();

  /** Lists a car of a market at `share` of its price, through the seller's form call. */
  const listAt = (make: string, share: number, name: string, year = thisYear - 4) => {
    const market = [...MARKETS, SUBARU].find((each) => each.make === make)!;
    return listCar(seller, {
      name,
      ...market,
      year,
      mileageKm: 40_000,
      reprice: Math.round(priceOf.get(make)!(year, 40_000) * share),
    });
  };

  beforeAll(async () => {
    ({ app, seller } = await startWithSeller({ SEARCH_LIMIT_PER_MINUTE: '100000' }));
    buyer = await signInAs(app, 'buyer@demo.local');
    for (const market of [...MARKETS, SUBARU]) {
      priceOf.set(market.make, (await seedMarket(app, market)).priceOf);
    }
    await app.runPriceGuide();
    // Two cars of each rating in each of three makes (the guide rates each as it is listed), and
    // cars it cannot rate: the model "Other" without a body type has no comparable cars.
    for (let i = 0; i < 30; i++) {
      const rating = DEAL_RATINGS[i % DEAL_RATINGS.length]!;
      await listAt(MARKETS[i % 3]!.make, SHARE[rating], `Deal car ${i}`, thisYear - 1 - (i % 8));
    }
    for (let i = 0; i < 5; i++) {
      await listCar(seller, {
        name: `Unrated car ${i}`,
        make: MARKETS[i % 3]!.make,
        model: 'Other',
        reprice: 9_000_00,
        year: 2010,
      });
    }
    await readCars();
  });
  afterAll(() => app.close());

  const { search, everyPage } = searchingAs(() => buyer, 4);

  const idsOf = (found: { _id?: string; id?: string }[]) =>
    found.map((car) => car._id ?? car.id).sort();
  const rated = (...ratings: DealRating[]) =>
    cars.filter((car) => car.rating !== null && ratings.includes(car.rating));

  it('finds only cars of the ratings asked, written with commas or repeated', async () => {
    const expected = idsOf(rated('great', 'good'));
    expect(expected.length).toBeGreaterThanOrEqual(12);
    expect(idsOf(await everyPage('deal=great,good'))).toEqual(expected);
    expect(idsOf(await everyPage('deal=great&deal=good'))).toEqual(expected);
    expect(idsOf(await everyPage('deal=good,great&sort=price_asc'))).toEqual(expected);
    const great = await search('deal=great&make=Mazda&limit=48');
    expect(idsOf(great.items)).toEqual(idsOf(rated('great').filter((car) => car.make === 'Mazda')));
    expect(great.total).toBe(great.items.length);
  });

  it('answers 400 naming the field for a rating it does not know', async () => {
    for (const query of ['deal=superb', 'deal=great,superb', 'deal=great&deal=', 'deal=Great']) {
      const response = await buyer.request(`/api/listings?${query}`);
      expect(response.status, query).toBe(400);
      expect((await errorOf(response)).field, query).toBe('deal');
    }
  });

  it('counts each rating under the other filters, and the others under the rating', async () => {
    const countsOf = (list: typeof cars) =>
      DEAL_RATINGS.map((rating) => ({
        value: rating,
        count: list.filter((car) => car.rating === rating).length,
      })).filter((facet) => facet.count > 0);

    const everything = await search('facets=1&limit=1');
    expect(everything.facets!.estimated).toBe(false);
    expect(everything.facets!.deal).toEqual(countsOf(cars));

    // The rating's own facet ignores the rating chosen; the make's counts only great deals.
    const chosen = await search('facets=1&limit=1&deal=great&make=Skoda');
    expect(chosen.facets!.deal).toEqual(countsOf(cars.filter((car) => car.make === 'Skoda')));
    const greatByMake = chosen.facets!.make.find((facet) => facet.value === 'Volvo');
    expect(greatByMake?.count).toBe(rated('great').filter((car) => car.make === 'Volvo').length);
    expect(chosen.total).toBe(rated('great').filter((car) => car.make === 'Skoda').length);
  });

  it('sorts best deals first, unrated cars last, page after page without repeats or gaps', async () => {
    const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const expected = [...cars]
      .sort((a, b) => (a.ratio ?? Infinity) - (b.ratio ?? Infinity) || byId(a.id, b.id))
      .map((car) => car.id);
    expect(cars.some((car) => car.rating === null)).toBe(true);
    // Pages of 4 and of 7 cross from rated to unrated cars at different places in a page.
    for (const limit of [4, 7, 48]) {
      const found = await everyPage('sort=deal', limit);
      expect(found.map((car) => car._id)).toEqual(expected);
    }
    // Under a filter, and with the rating filter (no unrated cars then).
    const skoda = await everyPage('sort=deal&make=Skoda', 3);
    expect(skoda.map((car) => car._id)).toEqual(
      expected.filter((id) => cars.find((car) => car.id === id)!.make === 'Skoda'),
    );
    const fair = await everyPage('sort=deal&deal=fair,high', 3);
    expect(fair.map((car) => car._id)).toEqual(
      expected.filter((id) => ['fair', 'high'].includes(cars.find((c) => c.id === id)!.rating!)),
    );
  });

  it('refuses a cursor of another sort order', async () => {
    const page = await search('sort=price_asc&limit=2');
    const response = await buyer.request(`/api/listings?sort=deal&cursor=${page.nextCursor}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).field).toBe('cursor');
  });

  it('alerts a saved search with deals only of new cars rated one of them when matched', async () => {
    const watcher = await buyerWithMail(app);
    await saveSearch(watcher, 'Great Subarus', 'make=Subaru&deal=great,good');
    // Each rated as it is listed, in the transaction of its listing, before the worker matches.
    await listAt('Subaru', SHARE.great, 'Subaru Outback great');
    await listAt('Subaru', SHARE.overpriced, 'Subaru Outback dear');
    await listCar(seller, {
      name: 'Subaru unrated',
      make: 'Subaru',
      model: 'Other',
      reprice: 9_000_00,
      year: 2011,
    });
    await app.runAlerts();
    const mail = await mailTo(app, watcher.account.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('A new car matches "Great Subarus"');
    expect(mail[0]!.text).toContain('Subaru Outback great');
    expect(mail[0]!.text).toContain('deal=great');

    // Its count now is the search's.
    const found = await search('make=Subaru&deal=great,good');
    expect(found.items.map((car) => car.name)).toContain('Subaru Outback great');
    const list = await watcher.request('/api/saved-searches');
    const [saved] = SavedSearchListSchema.parse(await list.json());
    expect(saved!.query).toBe('make=Subaru&deal=great%2Cgood');
    expect(saved!.matching).toBe(found.total);
  });
});

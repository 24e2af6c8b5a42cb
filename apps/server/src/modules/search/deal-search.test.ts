import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEAL_RATINGS,
  SavedSearchListSchema,
  SearchResultSchema,
  type DealRating,
  type SearchItem,
  type SearchResult,
} from '@carmarket/shared';
import { listing, listingDeal } from '../../db/schema.ts';
import { errorOf, signInAs, type TestClient } from '../../test/client.ts';
import type { TestApp } from '../../test/test-app.ts';
import {
  buyerWithMail,
  listCar,
  mailTo,
  saveSearch,
  startWithSeller,
} from '../saved/saved.test-helpers.ts';

/** What each rating's cars cost against their fair price here (two of each ratio: ties). */
const RATIO: Record<DealRating, number> = {
  great: 0.7,
  good: 0.9,
  fair: 1,
  high: 1.1,
  overpriced: 1.35,
};

describe('the deal filter, facet and sort (GET /api/listings)', () => {
  let app: TestApp;
  let seller: TestClient;
  let buyer: TestClient;
  /** Every car on sale with its rating (null: no price guide), read back from the database. */
  let cars: { id: string; make: string; rating: DealRating | null; ratio: number | null }[];

  /** Rates a car as the price guide would have (its fair price from the ratio given). */
  async function rate(listingId: string, rating: DealRating, ratio = RATIO[rating]) {
    const db = app.database.db;
    const [car] = await db.select().from(listing).where(eq(listing.id, listingId));
    const fairCents = Math.round(Number(car!.repriceCents) / ratio);
    const row = {
      listingId,
      fairCents,
      lowCents: Math.round(fairCents * 0.9),
      highCents: Math.round(fairCents * 1.1),
      comparables: 12,
      ratio,
      rating,
    };
    await db
      .insert(listingDeal)
      .values(row)
      .onConflictDoUpdate({ target: listingDeal.listingId, set: row });
  }

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

  beforeAll(async () => {
    ({ app, seller } = await startWithSeller({ SEARCH_LIMIT_PER_MINUTE: '100000' }));
    buyer = await signInAs(app, 'buyer@demo.local');
    const makes = ['Mazda', 'Skoda', 'Volvo'];
    const models = ['MX-5', 'Octavia', 'V60'];
    // Ten cars of each rating over three makes, and some the guide cannot rate.
    for (let i = 0; i < 30; i++) {
      const rating = DEAL_RATINGS[i % DEAL_RATINGS.length]!;
      const id = await listCar(seller, {
        name: `Deal car ${i}`,
        make: makes[i % 3]!,
        model: models[i % 3]!,
        reprice: 10_000_00 + i * 100_00,
        year: 2015 + (i % 8),
      });
      await rate(id, rating);
    }
    for (let i = 0; i < 5; i++) {
      await listCar(seller, {
        name: `Unrated car ${i}`,
        make: makes[i % 3]!,
        model: models[i % 3]!,
        reprice: 9_000_00,
        year: 2010,
      });
    }
    await readCars();
  });
  afterAll(() => app.close());

  async function search(query: string): Promise<SearchResult> {
    const response = await buyer.request(`/api/listings?${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return SearchResultSchema.parse(await response.json());
  }

  /** Every page of a search, following cursors; fails on a repeated car. */
  async function everyPage(query: string, limit = 4): Promise<SearchItem[]> {
    const items: SearchItem[] = [];
    let cursor: string | null = null;
    do {
      const page = await search(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(limit);
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(items.map((item) => item._id)).size).toBe(items.length);
    return items;
  }

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
    const great = await listCar(seller, {
      name: 'Subaru Outback great',
      make: 'Subaru',
      model: 'Outback',
      reprice: 7_000_00,
      year: 2011,
    });
    await rate(great, 'great');
    const overpriced = await listCar(seller, {
      name: 'Subaru Outback dear',
      make: 'Subaru',
      model: 'Outback',
      reprice: 12_000_00,
      year: 2011,
    });
    await rate(overpriced, 'overpriced');
    await listCar(seller, {
      name: 'Subaru Outback unrated',
      make: 'Subaru',
      model: 'Forester',
      reprice: 9_000_00,
      year: 2011,
    });
    await app.runAlerts();
    const mail = await mailTo(app, watcher.account.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('A new car matches "Great Subarus"');
    expect(mail[0]!.text).toContain('Subaru Outback great');
    expect(mail[0]!.text).toContain('deal=great');

    // Its count now is the search's: the one great Subaru.
    const list = await watcher.request('/api/saved-searches');
    const [saved] = SavedSearchListSchema.parse(await list.json());
    expect(saved!.query).toBe('make=Subaru&deal=great%2Cgood');
    expect(saved!.matching).toBe(1);
  });
});

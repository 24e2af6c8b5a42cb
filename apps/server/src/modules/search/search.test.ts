import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SearchSort } from '@carmarket/shared';
import { category, listing, user } from '../../db/schema.ts';
import { wideDemoCatalogue } from '../../seed/catalogue.ts';
import { errorOf, signInAs, type TestClient } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { placeById, searchPlaces } from '../places/gazetteer.ts';
import { PRICE_EDGES, YEAR_BUCKET_SPAN } from './search.service.ts';
import { searchingAs } from './search.test-helpers.ts';

type Row = typeof listing.$inferSelect;

/** Haversine with the mean Earth radius, written apart from the server's SQL. */
function kmBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const h =
    Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
    Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

const place = (label: string) => {
  const [found] = searchPlaces(label, 1);
  if (!found) throw new Error(`no place ${label}`);
  return found;
};

describe('GET /api/listings (search)', () => {
  let app: TestApp;
  let buyer: TestClient;
  /** Every car in the database, to work out by brute force what a search should find. */
  let all: Row[];
  const onSale = () => all.filter((car) => car.status === 'available' || car.status === 'reserved');

  beforeAll(async () => {
    // One buyer walks every page of every sort here, hundreds of searches in a minute; the
    // budget has its own tests (search-budget.test.ts).
    app = await startTestApp({ env: { SEARCH_LIMIT_PER_MINUTE: '100000' } });
    buyer = await signInAs(app, 'buyer@demo.local');
    const db = app.database.db;
    const [seller] = await db.select().from(user).where(eq(user.email, 'seller@demo.local'));
    // The wider set's own categories (Hybrid car) are seeded only with it; the tests seed small.
    const seeded = new Set((await db.select().from(category)).map((c) => c.name));
    const missing = [...new Set(wideDemoCatalogue(72).map((car) => car.category))].filter(
      (name) => !seeded.has(name),
    );
    if (missing.length > 0) {
      await db.insert(category).values(
        missing.map((name, i) => ({
          name,
          slug: name.toLowerCase().replaceAll(' ', '-'),
          icon: '/media/none.webp',
          position: 10 + i,
        })),
      );
    }
    const categories = await db.select().from(category);
    const categoryOf = (name: string) => categories.find((c) => c.name === name)!.id;
    const base = Date.now() - 86_400_000;
    const catalogue = wideDemoCatalogue(72);
    const values = catalogue.map((car, i) => {
      const at = place(car.location);
      return {
        categoryId: categoryOf(car.category),
        sellerId: seller!.id,
        sellerName: seller!.name,
        name: `${car.make} ${car.model}`,
        description: car.description,
        condition: car.condition,
        location: at.label,
        placeId: at.id,
        lat: at.lat,
        lng: at.lng,
        year: car.year,
        // Ties on purpose: every fourth car costs the same, and shares its mileage and time.
        mileageKm: i % 4 === 0 ? 50_000 : i % 9 === 0 ? null : car.mileageKm,
        repriceCents: i % 4 === 0 ? 20_000_00 : car.askingPrice * 100,
        orpriceCents: car.originalPrice * 100,
        currency: 'USD',
        make: car.make,
        model: car.model,
        bodyType: car.bodyType,
        fuel: car.fuel,
        transmission: car.transmission,
        colour: car.colour,
        createdAt: new Date(i % 4 === 0 ? base : base + i * 60_000),
      };
    });
    // Cars no search may find, whatever it asks: named like the others.
    const hidden = (['sold', 'withdrawn', 'removed'] as const).map((status) => ({
      ...values[1]!,
      name: 'Toyota Corolla hidden',
      status,
    }));
    // One held by a buyer's card right now: found, shown as reserved.
    const held = {
      ...values[2]!,
      name: 'Toyota Corolla held',
      status: 'reserved' as const,
      holdExpiresAt: new Date(Date.now() + 600_000),
    };
    await db.insert(listing).values([...values, ...hidden, held]);
    all = await db.select().from(listing);
  });
  afterAll(() => app.close());

  const { search, everyPage } = searchingAs(() => buyer, 7);

  const ids = (cars: { _id?: string; id?: string }[]) =>
    cars.map((car) => car._id ?? car.id).sort();

  it('answers 401 to callers who are not signed in', async () => {
    const response = await app.request('/api/listings?q=toyota');
    expect(response.status).toBe(401);
  });

  it('finds every car on sale and nothing else, page after page without repeats or gaps', async () => {
    const found = await everyPage('sort=newest');
    expect(ids(found)).toEqual(ids(onSale()));
    expect(found.some((car) => car.name.includes('hidden'))).toBe(false);
    const held = found.find((car) => car.name === 'Toyota Corolla held');
    expect(held?.status).toBe('reserved');
    expect(held?.reservedUntil).not.toBeNull();
  });

  const sorts: [SearchSort, (a: Row, b: Row) => number][] = [
    ['newest', (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id > a.id ? 1 : -1)],
    ['price_asc', (a, b) => a.repriceCents - b.repriceCents || (a.id > b.id ? 1 : -1)],
    ['price_desc', (a, b) => b.repriceCents - a.repriceCents || (b.id > a.id ? 1 : -1)],
    [
      'mileage_asc',
      (a, b) =>
        (a.mileageKm ?? 2 ** 31 - 1) - (b.mileageKm ?? 2 ** 31 - 1) || (a.id > b.id ? 1 : -1),
    ],
    ['year_desc', (a, b) => b.year - a.year || (b.id > a.id ? 1 : -1)],
  ];
  for (const [sort, compare] of sorts) {
    it(`sorts by ${sort}, ties broken by id, across pages`, async () => {
      const found = await everyPage(`sort=${sort}`, 5);
      expect(found.map((car) => car._id)).toEqual([...onSale()].sort(compare).map((car) => car.id));
    });
  }

  it('applies every filter together as a brute-force count would', async () => {
    const query =
      'make=Toyota&make=BMW&make=Volvo&fuel=hybrid&fuel=diesel&fuel=petrol&transmission=automatic' +
      '&yearMin=2014&yearMax=2024&priceMin=1000000&priceMax=6000000&mileageMax=150000' +
      '&condition=Good&condition=Excellent';
    const found = await everyPage(query, 4);
    const expected = onSale().filter(
      (car) =>
        ['Toyota', 'BMW', 'Volvo'].includes(car.make) &&
        ['hybrid', 'diesel', 'petrol'].includes(car.fuel ?? '') &&
        car.transmission === 'automatic' &&
        car.year >= 2014 &&
        car.year <= 2024 &&
        car.repriceCents >= 1_000_000 &&
        car.repriceCents <= 6_000_000 &&
        car.mileageKm !== null &&
        car.mileageKm <= 150_000 &&
        ['Good', 'Excellent'].includes(car.condition),
    );
    expect(expected.length).toBeGreaterThan(2);
    expect(ids(found)).toEqual(ids(expected));
    const page = await search(query);
    expect(page.total).toBe(expected.length);
    expect(page.totalIsEstimate).toBe(false);
  });

  it('filters by model, body type and category', async () => {
    const [sample] = onSale().filter((car) => car.bodyType === 'SUV');
    const found = await everyPage(
      `make=${encodeURIComponent(sample!.make)}&model=${encodeURIComponent(sample!.model)}&bodyType=SUV&category=${sample!.categoryId}`,
    );
    const expected = onSale().filter(
      (car) =>
        car.make === sample!.make &&
        car.model === sample!.model &&
        car.bodyType === 'SUV' &&
        car.categoryId === sample!.categoryId,
    );
    expect(ids(found)).toEqual(ids(expected));
  });

  it('counts each facet value among cars matching the other filters, as brute force does', async () => {
    const { facets, total } = await search('make=Toyota&fuel=hybrid&priceMax=4000000&facets=1');
    expect(facets?.estimated).toBe(false);
    const cars = onSale();
    const tally = (rows: Row[], key: (car: Row) => string | null) => {
      const counts = new Map<string, number>();
      for (const car of rows) {
        const value = key(car);
        if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      return Object.fromEntries(counts);
    };
    const asObject = (values: { value: string; count: number }[]) =>
      Object.fromEntries(values.map((v) => [v.value, v.count]));
    const cheap = (car: Row) => car.repriceCents <= 4_000_000;
    expect(asObject(facets!.make)).toEqual(
      tally(
        cars.filter((c) => c.fuel === 'hybrid' && cheap(c)),
        (c) => c.make,
      ),
    );
    expect(asObject(facets!.model)).toEqual(
      tally(
        cars.filter((c) => c.make === 'Toyota' && c.fuel === 'hybrid' && cheap(c)),
        (c) => c.model,
      ),
    );
    expect(asObject(facets!.fuel)).toEqual(
      tally(
        cars.filter((c) => c.make === 'Toyota' && cheap(c)),
        (c) => c.fuel,
      ),
    );
    const matching = cars.filter((c) => c.make === 'Toyota' && c.fuel === 'hybrid' && cheap(c));
    expect(asObject(facets!.bodyType)).toEqual(tally(matching, (c) => c.bodyType));
    expect(asObject(facets!.transmission)).toEqual(tally(matching, (c) => c.transmission));
    expect(asObject(facets!.condition)).toEqual(tally(matching, (c) => c.condition));
    expect(total).toBe(matching.length);
    const years = tally(matching, (c) =>
      String(Math.floor(c.year / YEAR_BUCKET_SPAN) * YEAR_BUCKET_SPAN),
    );
    expect(Object.fromEntries(facets!.year.map((r) => [String(r.min), r.count]))).toEqual(years);
    const priced = cars.filter((c) => c.make === 'Toyota' && c.fuel === 'hybrid');
    for (const bucket of facets!.price) {
      const inBucket = priced.filter(
        (c) =>
          c.repriceCents >= bucket.min! && (bucket.max === null || c.repriceCents <= bucket.max),
      );
      expect(bucket.count).toBe(inBucket.length);
    }
    expect(facets!.price.reduce((sum, b) => sum + b.count, 0)).toBe(priced.length);
    expect(PRICE_EDGES[0]).toBe(0);
  });

  it('finds Toyota Corollas from "toyta corola", and only cars with every word', async () => {
    const found = await everyPage('q=toyta%20corola');
    const text = (car: Row) => `${car.make} ${car.model} ${car.name} ${car.description}`;
    const expected = onSale().filter(
      (car) => /toyota/i.test(text(car)) && /corolla/i.test(text(car)),
    );
    expect(expected.filter((car) => car.model === 'Corolla').length).toBeGreaterThan(1);
    expect(ids(found)).toEqual(ids(expected));
    const described = await everyPage('q=serviced%20every%20year');
    expect(ids(described)).toEqual(
      ids(onSale().filter((car) => /serviced every year/i.test(car.description))),
    );
  });

  it('measures distances to within 1 km and keeps to the radius, nearest first', async () => {
    const portland = place('Portland, OR');
    const seattle = placeById(place('Seattle, WA').id)!;
    // Published great-circle distances: Portland-Seattle about 234 km.
    expect(kmBetween(portland, seattle)).toBeGreaterThan(230);
    expect(kmBetween(portland, seattle)).toBeLessThan(238);
    const found = await everyPage(`near=${portland.id}&radiusKm=400&sort=distance`, 4);
    const expected = onSale().filter(
      (car) => car.lat !== null && kmBetween(portland, { lat: car.lat, lng: car.lng! }) <= 400,
    );
    expect(ids(found)).toEqual(ids(expected));
    expect(found.some((car) => car.location === seattle.label)).toBe(true);
    for (const car of found) {
      const row = all.find((r) => r.id === car._id)!;
      expect(
        Math.abs(car.distanceKm! - kmBetween(portland, { lat: row.lat!, lng: row.lng! })),
      ).toBeLessThan(1);
    }
    const distances = found.map((car) => car.distanceKm!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    // Across a continent too: New York to Los Angeles, about 3,940 km.
    const newYork = place('New York City, NY');
    const far = await search(`near=${newYork.id}&radiusKm=1000&sort=distance`);
    expect(far.items.every((car) => car.distanceKm! <= 1000)).toBe(true);
  });

  it('names the field of every bad parameter in a 400, never a 500', async () => {
    const cases: [string, string][] = [
      ['priceMin=cheap', 'priceMin'],
      ['yearMin=2020&yearMax=2010', 'yearMin'],
      ['sort=cheapest', 'sort'],
      ['sort=distance', 'sort'],
      ['limit=100', 'limit'],
      ['limit=0', 'limit'],
      ['cursor=not*a*cursor', 'cursor'],
      [`cursor=${Buffer.from('["newest","x","y"]').toString('base64url')}`, 'cursor'],
      ['near=99999999', 'near'],
      ['radiusKm=10', 'radiusKm'],
      ['fuel=coal', 'fuel'],
      ['category=12', 'category'],
      ['facets=maybe', 'facets'],
      [`q=${'x'.repeat(201)}`, 'q'],
    ];
    for (const [query, field] of cases) {
      const response = await buyer.request(`/api/listings?${query}`);
      expect(response.status, query).toBe(400);
      expect((await errorOf(response)).field, query).toBe(field);
    }
    // A cursor of one sort order is refused by another.
    const { nextCursor } = await search('sort=newest&limit=2');
    const response = await buyer.request(`/api/listings?sort=price_asc&cursor=${nextCursor}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).field).toBe('cursor');
  });

  it('refuses a crafted cursor whose key is no value of its sort, never a 500', async () => {
    const id = '0b5c7f7e-1d2a-4e2b-9a51-3c1f2d4e5f60';
    const crafted = (sort: string, key: string) =>
      `sort=${sort}&cursor=${Buffer.from(JSON.stringify([sort, key, id])).toString('base64url')}`;
    const cases = [
      crafted('newest', '2026-02-31 10:00:00+00'),
      crafted('newest', '2026-03-01 10:00:00+99'),
      crafted('price_asc', '12abc'),
      crafted('price_desc', '99999999999999999999'),
      crafted('year_desc', '2026.5'),
      crafted('mileage_asc', '9999999999'),
      crafted('deal', 'cheap'),
      crafted('deal', '1e999'),
    ];
    for (const query of cases) {
      const response = await buyer.request(`/api/listings?${query}`);
      expect(response.status, query).toBe(400);
      expect((await errorOf(response)).field, query).toBe('cursor');
    }
    // The keys the server gives still page.
    const first = await search('sort=price_asc&limit=1');
    const next = await buyer.request(
      `/api/listings?sort=price_asc&limit=1&cursor=${first.nextCursor}`,
    );
    expect(next.status).toBe(200);
  });

  it('pages a category like a search, with its total', async () => {
    const [first] = await app.database.db.select().from(category).limit(1);
    const inCategory = onSale().filter((car) => car.categoryId === first!.id);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await buyer.request(
        `/api/category/${first!.id}?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        listings: { _id: string }[];
        total: number;
        nextCursor: string | null;
      };
      expect(body.total).toBe(inCategory.length);
      ids.push(...body.listings.map((car) => car._id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(ids.sort()).toEqual(inCategory.map((car) => car.id).sort());
  });

  it('leaves out cars that stop being on sale', async () => {
    const [car] = onSale().filter((c) => c.make === 'Tesla');
    await app.database.db
      .update(listing)
      .set({ status: 'withdrawn' })
      .where(inArray(listing.id, [car!.id]));
    const found = await everyPage('make=Tesla');
    expect(found.map((c) => c._id)).not.toContain(car!.id);
    await app.database.db
      .update(listing)
      .set({ status: 'available' })
      .where(eq(listing.id, car!.id));
  });
});

describe('GET /api/places', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('suggests places by prefix, largest first, to anyone, cached', async () => {
    const response = await app.request('/api/places?q=portl');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('max-age=86400');
    const places = (await response.json()) as { label: string; lat: number }[];
    expect(places[0]!.label).toBe('Portland, OR');
    expect(places.length).toBeLessThanOrEqual(8);
    const narrowed = (await (await app.request('/api/places?q=portland,%20me')).json()) as {
      label: string;
    }[];
    expect(narrowed.map((p) => p.label)).toEqual(['Portland, ME']);
    expect(await (await app.request('/api/places?q=')).json()).toEqual([]);
    const tooLong = await app.request(`/api/places?q=${'a'.repeat(101)}`);
    expect(tooLong.status).toBe(400);
  });
});

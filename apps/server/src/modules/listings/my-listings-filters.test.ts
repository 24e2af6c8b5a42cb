import { inArray, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MyListingCountsSchema, MyListingListSchema, type MyListing } from '@carmarket/shared';
import { listing } from '../../db/schema.ts';
import { errorOf, register, type TestClient } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { newCar } from './listings.test-helpers.ts';

/** A European VIN: only its shape is checked (no check digit). */
const VIN = 'WVWZZZ1JZXW123456';

describe('My cars: filtered by state, searched, sorted, paged', () => {
  let app: TestApp;
  let dealer: TestClient;
  let rival: TestClient;
  /** The dealer's cars by a short name. */
  const ids: Record<string, string> = {};

  async function add(client: TestClient, key: string, fields: Record<string, unknown>) {
    const response = await newCar(client, fields);
    expect(response.status, await response.clone().text()).toBe(200);
    const id = ((await response.json()) as { insertedId: string }).insertedId;
    ids[key] = id;
    return id;
  }

  async function list(query = '', client = dealer) {
    const response = await client.get(`/api/my/listings${query ? `?${query}` : ''}`);
    expect(response.status, `${query}: ${await response.clone().text()}`).toBe(200);
    return MyListingListSchema.parse(await response.json());
  }
  const names = (cars: MyListing[]) => cars.map((car) => car.name).sort();

  async function counts(query = '', client = dealer) {
    const response = await client.get(`/api/my/listings/counts${query ? `?${query}` : ''}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return MyListingCountsSchema.parse(await response.json());
  }

  /** Every car of a query, `limit` at a time, following X-Next-Cursor; checks each page's total. */
  async function pageThrough(query: string, limit: number) {
    const seen: string[] = [];
    let cursor: string | null = null;
    let total: number | undefined;
    for (let pages = 0; pages < 50; pages += 1) {
      const response = await dealer.get(
        `/api/my/listings?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(response.status, await response.clone().text()).toBe(200);
      const page = MyListingListSchema.parse(await response.json());
      expect(page.length).toBeLessThanOrEqual(limit);
      total ??= Number(response.headers.get('x-total-count'));
      expect(Number(response.headers.get('x-total-count'))).toBe(total);
      seen.push(...page.map((car) => car._id));
      cursor = response.headers.get('x-next-cursor');
      if (!cursor) break;
    }
    return { seen, total };
  }

  beforeAll(async () => {
    app = await startTestApp();
    dealer = await register(app, { role: 'Seller', name: 'Dana Dealer' });
    rival = await register(app, { role: 'Seller', name: 'Rita Rival' });
    // Three cars at one price, two at another: the sorts' ties.
    await add(dealer, 'corolla', {
      name: 'Toyota Corolla Hybrid',
      make: 'Toyota',
      model: 'Corolla',
      reprice: 15_000_00,
    });
    await add(dealer, 'camry', {
      name: 'Toyota Camry LE',
      make: 'Toyota',
      model: 'Camry',
      reprice: 15_000_00,
    });
    await add(dealer, 'tesla', {
      name: 'Long Range saloon',
      make: 'Tesla',
      model: 'Model 3',
      vin: VIN,
      reprice: 15_000_00,
    });
    await add(dealer, 'id4', {
      name: 'Volkswagen ID.4 Pro',
      make: 'Volkswagen',
      model: 'ID.4',
      reprice: 22_000_00,
    });
    await add(dealer, 'ev6', {
      name: 'Kia EV6 GT-Line',
      make: 'Kia',
      model: 'EV6',
      reprice: 22_000_00,
    });
    await add(dealer, 'niro', {
      name: 'Kia Niro 100% electric',
      make: 'Kia',
      model: 'Niro',
      reprice: 9_000_00,
    });
    await add(rival, 'rivalCorolla', {
      name: 'Toyota Corolla Cross',
      make: 'Toyota',
      model: 'Corolla',
      reprice: 15_000_00,
    });

    // The states: the EV6 withdrawn by its seller; the ID.4 sold; the Tesla held by a paying
    // buyer; the Niro's hold lapsed but not yet swept (on sale, as everywhere else).
    expect((await dealer.post(`/api/listings/${ids.ev6}/withdraw`)).status).toBe(200);
    const db = app.database.db;
    await db.update(listing).set({ status: 'sold' }).where(eq(listing.id, ids.id4!));
    await db
      .update(listing)
      .set({ status: 'reserved', holdExpiresAt: new Date(Date.now() + 3_600_000) })
      .where(eq(listing.id, ids.tesla!));
    await db
      .update(listing)
      .set({ status: 'reserved', holdExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(listing.id, ids.niro!));
  });
  afterAll(() => app.close());

  it('filters by one state, or several (repeated or comma-separated); reserved means a live hold', async () => {
    expect(names(await list('status=available'))).toEqual([
      'Kia Niro 100% electric',
      'Toyota Camry LE',
      'Toyota Corolla Hybrid',
    ]);
    const reserved = await list('status=reserved');
    expect(reserved.map((car) => [car.name, car.status])).toEqual([
      ['Long Range saloon', 'reserved'],
    ]);
    expect(names(await list('status=sold'))).toEqual(['Volkswagen ID.4 Pro']);
    expect(names(await list('status=withdrawn'))).toEqual(['Kia EV6 GT-Line']);
    // Each car shows in the tab of the status it shows.
    for (const status of ['available', 'reserved', 'sold', 'withdrawn']) {
      for (const car of await list(`status=${status}`)) expect(car.status).toBe(status);
    }

    const soldOrWithdrawn = ['Kia EV6 GT-Line', 'Volkswagen ID.4 Pro'];
    expect(names(await list('status=sold&status=withdrawn'))).toEqual(soldOrWithdrawn);
    expect(names(await list('status=sold,withdrawn'))).toEqual(soldOrWithdrawn);
    expect(names(await list('status=sold,withdrawn&status=sold'))).toEqual(soldOrWithdrawn);
    expect(await list('status=available,reserved,sold,withdrawn')).toHaveLength(6);
    expect(await list()).toHaveLength(6);
  });

  it('searches name, make, model and VIN, in any case, trimmed; % and _ are plain characters', async () => {
    expect(names(await list('q=corolla'))).toEqual(['Toyota Corolla Hybrid']);
    expect(names(await list('q=TOYOTA'))).toEqual(['Toyota Camry LE', 'Toyota Corolla Hybrid']);
    // The make and the model alone, not in the name.
    expect(names(await list('q=tesla'))).toEqual(['Long Range saloon']);
    expect(names(await list(`q=${encodeURIComponent('model 3')}`))).toEqual(['Long Range saloon']);
    expect(names(await list(`q=${VIN.slice(-6).toLowerCase()}`))).toEqual(['Long Range saloon']);
    expect(names(await list(`q=${encodeURIComponent(`  ${VIN}  `)}`))).toEqual([
      'Long Range saloon',
    ]);
    expect(names(await list(`q=${encodeURIComponent('100%')}`))).toEqual([
      'Kia Niro 100% electric',
    ]);
    expect(await list(`q=${encodeURIComponent('%')}`)).toHaveLength(1);
    expect(await list('q=_')).toHaveLength(0);
    expect(await list('q=nothing-like-it')).toEqual([]);
    // Blank is no search at all.
    expect(await list(`q=${encodeURIComponent('   ')}`)).toHaveLength(6);
    // With a state: both must hold.
    expect(names(await list('q=kia&status=withdrawn'))).toEqual(['Kia EV6 GT-Line']);
    expect(names(await list('q=kia&status=available'))).toEqual(['Kia Niro 100% electric']);
  });

  it('counts each state for the tabs, of all the cars or of those the search finds', async () => {
    expect(await counts()).toEqual({ all: 6, available: 3, reserved: 1, sold: 1, withdrawn: 1 });
    expect(await counts('q=kia')).toEqual({
      all: 2,
      available: 1,
      reserved: 0,
      sold: 0,
      withdrawn: 1,
    });
    expect(await counts('q=nothing-like-it')).toEqual({
      all: 0,
      available: 0,
      reserved: 0,
      sold: 0,
      withdrawn: 0,
    });
    // The counts agree with the lists.
    for (const status of ['available', 'reserved', 'sold', 'withdrawn'] as const) {
      expect((await list(`status=${status}`)).length).toBe((await counts())[status]);
    }
  });

  it('sorts by date and price, and pages two at a time through ties in every order', async () => {
    // Four cars listed in the same instant, three of them at the same price.
    const tied = [ids.corolla!, ids.camry!, ids.tesla!, ids.niro!];
    await app.database.db
      .update(listing)
      .set({ createdAt: new Date('2026-03-04T05:06:07.891Z') })
      .where(inArray(listing.id, tied));
    const everyCar = await list();
    const byId = new Map(everyCar.map((car) => [car._id, car]));
    // PostgreSQL orders uuids as their hex text does.
    const idAsc = (a: MyListing, b: MyListing) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
    const time = (car: MyListing) => Date.parse(car.createdAt);
    const expected: Record<string, (a: MyListing, b: MyListing) => number> = {
      newest: (a, b) => time(b) - time(a) || idAsc(b, a),
      oldest: (a, b) => time(a) - time(b) || idAsc(a, b),
      price_asc: (a, b) => a.reprice - b.reprice || idAsc(a, b),
      price_desc: (a, b) => b.reprice - a.reprice || idAsc(b, a),
    };
    for (const [sort, order] of Object.entries(expected)) {
      const want = [...everyCar].sort(order).map((car) => car._id);
      // The whole list, sorted.
      expect(
        (await list(`sort=${sort}`)).map((car) => car._id),
        sort,
      ).toEqual(want);
      // Two at a time: every car once, in the same order, the total on every page.
      const { seen, total } = await pageThrough(`sort=${sort}`, 2);
      expect(seen, sort).toEqual(want);
      expect(total).toBe(6);
      // Filtered too: the available cars, of which three are tied on time and two on price.
      const filtered = await pageThrough(`sort=${sort}&status=available`, 2);
      expect(filtered.seen, sort).toEqual(
        want.filter((id) => byId.get(id)!.status === 'available'),
      );
      expect(filtered.total).toBe(3);
      // One at a time through the search.
      const searched = await pageThrough(`sort=${sort}&q=toyota`, 1);
      expect(searched.seen.map((id) => byId.get(id)!.name)).toEqual(
        want
          .map((id) => byId.get(id)!)
          .filter((car) => car.make === 'Toyota')
          .map((car) => car.name),
      );
    }
    // Newest is the default order.
    expect((await list()).map((car) => car._id)).toEqual(
      [...everyCar].sort(expected.newest).map((car) => car._id),
    );
    // Without limit or cursor, no paging headers: the whole list, as before.
    const whole = await dealer.get('/api/my/listings?status=available');
    expect(whole.headers.get('x-total-count')).toBeNull();
    expect(whole.headers.get('x-next-cursor')).toBeNull();
  });

  it('never shows or counts another seller’s cars', async () => {
    expect((await list('q=corolla')).map((car) => car._id)).toEqual([ids.corolla]);
    expect((await list('', rival)).map((car) => car._id)).toEqual([ids.rivalCorolla]);
    expect(await list('q=kia', rival)).toEqual([]);
    expect(await counts('', rival)).toEqual({
      all: 1,
      available: 1,
      reserved: 0,
      sold: 0,
      withdrawn: 0,
    });
    // A cursor of the dealer's pages nothing of theirs into the rival's list.
    const first = await dealer.get('/api/my/listings?limit=1');
    const cursor = first.headers.get('x-next-cursor')!;
    const rivalPage = await list(`limit=5&cursor=${encodeURIComponent(cursor)}`, rival);
    expect(rivalPage.every((car) => car._id === ids.rivalCorolla)).toBe(true);
  });

  it('answers 400 naming the field for a value it does not know, never 500', async () => {
    const newest = await dealer.get('/api/my/listings?limit=1');
    const newestCursor = encodeURIComponent(newest.headers.get('x-next-cursor')!);
    const cases: [string, string][] = [
      ['status=gone', 'status'],
      ['status=available,removed', 'status'],
      ['status=sold&status=', 'status'],
      ['status=', 'status'],
      ['sort=cheapest', 'sort'],
      ['sort=views%27--', 'sort'],
      [`q=${'x'.repeat(101)}`, 'q'],
      ['q=a%00b', 'q'],
      ['q=a&q=b', 'q'],
      ['limit=0', 'limit'],
      // A cursor of one order does not page another.
      [`sort=price_asc&limit=1&cursor=${newestCursor}`, 'cursor'],
      ['limit=2&cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ];
    for (const [query, field] of cases) {
      const response = await dealer.get(`/api/my/listings?${query}`);
      expect(response.status, query).toBe(400);
      expect((await errorOf(response)).field, query).toBe(field);
    }
    for (const [query, field] of [
      ['q=a%00b', 'q'],
      [`q=${'x'.repeat(101)}`, 'q'],
    ]) {
      const response = await dealer.get(`/api/my/listings/counts?${query}`);
      expect(response.status, query).toBe(400);
      expect((await errorOf(response)).field, query).toBe(field);
    }
    // Bidirectional controls are taken out, as in every text field: the search still finds.
    expect(names(await list(`q=${encodeURIComponent('\u202eCamry')}`))).toEqual([
      'Toyota Camry LE',
    ]);
  });
});

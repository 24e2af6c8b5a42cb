import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_SAVED_CARS,
  MAX_SAVED_SEARCHES,
  MyListingListSchema,
  SavedCarListSchema,
  SavedSearchListSchema,
  type SearchResult,
} from '@carmarket/shared';
import {
  category,
  listing,
  mailQueue,
  savedCar,
  savedSearch,
  savedSearchMatch,
  user,
} from '../../db/schema.ts';
import { confirmAddress, isSignUpMail } from '../../test/mail.ts';
import { readOutbox, type OutboxEntry } from '../../adapters/mail.ts';
import { codeOf, errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { payFor, validBooking } from '../../test/fixtures.ts';
import { startSmtpStandIn } from '../../test/smtp.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { uploadPhoto } from '../../test/uploads.ts';
import { searchPlaces } from '../places/gazetteer.ts';

// The worker runs only when a test asks (app.runAlerts), so each test knows what was sent.
const env = { ALERT_INTERVAL_MS: '3600000', ALERT_DIGEST_HOURS: '24' };

const put = (client: TestClient, path: string) => client.request(path, { method: 'PUT' });
const del = (client: TestClient, path: string) => client.request(path, { method: 'DELETE' });
const patch = (client: TestClient, path: string, json: unknown) =>
  client.request(path, { method: 'PATCH', json });

const place = (label: string) => searchPlaces(label, 1)[0]!;

interface NewCar {
  name: string;
  make: string;
  model: string;
  reprice: number;
  year: number;
  mileageKm?: number;
  bodyType?: string;
  fuel?: string;
  transmission?: string;
  condition?: string;
  placeId?: number;
  location?: string;
  describe?: string;
  category?: string;
}

const photos = new WeakMap<TestClient, Promise<string>>();

/** Lists a car through the seller's form call (which queues it for matching). */
async function listCar(seller: TestClient, car: NewCar): Promise<string> {
  const { category: categoryName = 'Luxury car', ...fields } = car;
  if (!photos.has(seller)) photos.set(seller, uploadPhoto(seller));
  const photo = await photos.get(seller)!;
  const response = await seller.post(`/api/product?name=${encodeURIComponent(categoryName)}`, {
    orprice: car.reprice + 5_000_00,
    location: 'Somewhere',
    condition: 'Good',
    describe: 'A car listed by a test.',
    mileageKm: 40_000,
    images: [photo],
    ...fields,
  });
  if (response.status !== 200) throw new Error(`listing failed: ${await response.text()}`);
  return ((await response.json()) as { insertedId: string }).insertedId;
}

async function saveSearch(buyer: TestClient, name: string, query: string, alerts = 'instant') {
  const response = await buyer.post('/api/saved-searches', { name, query, alerts });
  if (response.status !== 200) throw new Error(`save failed: ${await response.text()}`);
  return ((await response.json()) as { insertedId: string }).insertedId;
}

/** A new buyer with a confirmed address: alert mail goes only to those. */
async function buyerWithMail(app: TestApp, overrides: Parameters<typeof register>[1] = {}) {
  const buyer = await register(app, overrides);
  await confirmAddress(app, buyer);
  return buyer;
}

const mailTo = async (app: TestApp, email: string): Promise<OutboxEntry[]> =>
  (await readOutbox(app.outboxDir)).filter((mail) => mail.to === email && !isSignUpMail(mail));

const unsubscribeLink = (mail: OutboxEntry) => {
  const match = /\/unsubscribe\?token=(\S+)/.exec(mail.text);
  if (!match) throw new Error(`no unsubscribe link in: ${mail.text}`);
  return match[1]!;
};

describe('saved cars', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env });
    seller = await signInAs(app, 'seller@demo.local');
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
    app = await startTestApp({ env });
    seller = await signInAs(app, 'seller@demo.local');
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

describe('alerts', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env });
    seller = await signInAs(app, 'seller@demo.local');
  });
  afterAll(() => app.close());

  it('sends one instant alert per saved search with the new cars, once, and counts them as new', async () => {
    const buyer = await buyerWithMail(app);
    const id = await saveSearch(buyer, 'Mazda MX-5', 'make=Mazda&model=MX-5');
    await saveSearch(buyer, 'Quiet search', 'make=Mazda', 'off');
    const first = await listCar(seller, {
      name: 'Mazda MX-5 RF',
      make: 'Mazda',
      model: 'MX-5',
      reprice: 21_000_00,
      year: 2019,
    });
    const second = await listCar(seller, {
      name: 'Mazda MX-5 ND',
      make: 'Mazda',
      model: 'MX-5',
      reprice: 19_000_00,
      year: 2017,
    });
    await listCar(seller, {
      name: 'Mazda CX-5',
      make: 'Mazda',
      model: 'CX-5',
      reprice: 19_000_00,
      year: 2017,
    });
    await app.runAlerts();
    await app.runAlerts();
    const mail = await mailTo(app, buyer.account.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('2 new cars match "Mazda MX-5"');
    expect(mail[0]!.text).toContain(`/listing/${first}`);
    expect(mail[0]!.text).toContain(`/listing/${second}`);
    expect(mail[0]!.text).not.toContain('CX-5 ');
    expect(mail[0]!.headers?.['List-Unsubscribe']).toMatch(
      /^<http.+\/api\/unsubscribe\?token=.+>$/,
    );
    expect(mail[0]!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    const list = SavedSearchListSchema.parse(await (await buyer.get('/api/saved-searches')).json());
    expect(list.find((s) => s._id === id)).toMatchObject({ newSinceVisit: 2, matching: 2 });
    expect(list.find((s) => s.name === 'Quiet search')).toMatchObject({ newSinceVisit: 3 });
    await patch(buyer, `/api/saved-searches/${id}`, { visited: true });
    const after = SavedSearchListSchema.parse(
      await (await buyer.get('/api/saved-searches')).json(),
    );
    expect(after.find((s) => s._id === id)).toMatchObject({ newSinceVisit: 0, matching: 2 });
  });

  it('groups a day of matches into one digest', async () => {
    const buyer = await buyerWithMail(app);
    const id = await saveSearch(buyer, 'Daily Skodas', 'make=Skoda', 'daily');
    await listCar(seller, {
      name: 'Skoda Octavia',
      make: 'Skoda',
      model: 'Octavia',
      reprice: 11_000_00,
      year: 2016,
    });
    await listCar(seller, {
      name: 'Skoda Fabia',
      make: 'Skoda',
      model: 'Fabia',
      reprice: 6_000_00,
      year: 2014,
    });
    await app.runAlerts();
    // Not a day yet since it was saved: nothing.
    expect(await mailTo(app, buyer.account.email)).toHaveLength(0);
    await app.database.db
      .update(savedSearch)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(savedSearch.id, id));
    await app.runAlerts();
    await app.runAlerts();
    const mail = await mailTo(app, buyer.account.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('Your daily cars for "Daily Skodas": 2 new');
    expect(mail[0]!.text).toMatch(/Skoda Octavia[\s\S]*Skoda Fabia/);
  });

  it('tells the people who saved a car of a price drop and of its sale, and nobody else', async () => {
    const saver = await buyerWithMail(app);
    const bystander = await buyerWithMail(app);
    const carId = await listCar(seller, {
      name: 'Volvo V60',
      make: 'Volvo',
      model: 'V60',
      reprice: 8_000_00,
      year: 2012,
    });
    await put(saver, `/api/saved-cars/${carId}`);
    await app.runAlerts();
    await patch(seller, `/api/listings/${carId}`, { reprice: 9_000_00 });
    await app.runAlerts();
    expect(await mailTo(app, saver.account.email)).toHaveLength(0);
    await patch(seller, `/api/listings/${carId}`, { reprice: 7_500_00 });
    await app.runAlerts();
    let mail = await mailTo(app, saver.account.email);
    expect(mail.map((m) => m.subject)).toEqual(['Price drop: Volvo V60']);
    expect(mail[0]!.text).toContain('$7,500');
    expect(mail[0]!.text).toContain('$9,000');

    const payer = await buyerWithMail(app);
    const booked = (await (await payer.post('/api/category', validBooking(carId))).json()) as {
      insertedId: string;
    };
    await payFor(payer, booked.insertedId);
    await app.runAlerts();
    mail = await mailTo(app, saver.account.email);
    expect(mail.map((m) => m.subject)).toEqual(['Price drop: Volvo V60', 'Sold: Volvo V60']);
    expect(await mailTo(app, bystander.account.email)).toHaveLength(0);
    expect(
      (await mailTo(app, payer.account.email)).filter((m) => /Price drop|^Sold/.test(m.subject)),
    ).toHaveLength(0);
  });

  it('tells of a price drop once, however often the seller moves the price', async () => {
    const saver = await buyerWithMail(app);
    const carId = await listCar(seller, {
      name: 'Kia Ceed',
      make: 'Kia',
      model: 'Ceed',
      reprice: 10_000_00,
      year: 2017,
    });
    await put(saver, `/api/saved-cars/${carId}`);
    const drops = async () =>
      (await mailTo(app, saver.account.email)).filter((m) => m.subject.startsWith('Price drop'));
    // Down and back up before the worker ran: nothing to tell.
    await patch(seller, `/api/listings/${carId}`, { reprice: 9_000_00 });
    await patch(seller, `/api/listings/${carId}`, { reprice: 10_000_00 });
    await app.runAlerts();
    expect(await drops()).toHaveLength(0);
    // Two drops before the worker ran: one mail, from the first price to the last.
    await patch(seller, `/api/listings/${carId}`, { reprice: 9_500_00 });
    await patch(seller, `/api/listings/${carId}`, { reprice: 9_000_00 });
    await app.runAlerts();
    expect((await drops()).map((m) => /costs (\S+) \(was (\S+)\)/.exec(m.text)?.slice(1))).toEqual([
      ['$9,000', '$10,000'],
    ]);
    // Up and down again to a price already told of: no news.
    await patch(seller, `/api/listings/${carId}`, { reprice: 10_000_00 });
    await app.runAlerts();
    await patch(seller, `/api/listings/${carId}`, { reprice: 9_000_00 });
    await app.runAlerts();
    expect(await drops()).toHaveLength(1);
    // Lower than ever: news.
    await patch(seller, `/api/listings/${carId}`, { reprice: 8_500_00 });
    await app.runAlerts();
    expect(await drops()).toHaveLength(2);
  });

  it('unsubscribes from the link without a session, and refuses a forged link', async () => {
    const buyer = await buyerWithMail(app);
    const id = await saveSearch(buyer, 'Hondas', 'make=Honda');
    await listCar(seller, {
      name: 'Honda Civic',
      make: 'Honda',
      model: 'Civic',
      reprice: 10_000_00,
      year: 2015,
    });
    await app.runAlerts();
    const [mail] = await mailTo(app, buyer.account.email);
    const token = unsubscribeLink(mail!);

    // Forged: another search's id with this signature, or this id with a changed signature.
    const other = await saveSearch(buyer, 'Other', 'make=Honda&model=Jazz');
    const [, , signature] = token.split('.');
    for (const forged of [
      `s.${other}.${signature}`,
      `${token.slice(0, -2)}xx`,
      'c.' + token.slice(2),
    ]) {
      const refused = await new TestClient(app).post(`/api/unsubscribe?token=${forged}`);
      expect(refused.status, forged).toBe(400);
      expect(await codeOf(refused)).toBe('invalid-action-code');
    }

    // What a mail program sends for List-Unsubscribe-Post: a form body, no cookie, no Origin.
    const oneClick = await fetch(`${app.baseUrl}/api/unsubscribe?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.json()).toEqual({
      unsubscribed: true,
      what: 'alerts for your saved search "Hondas"',
    });
    const list = SavedSearchListSchema.parse(await (await buyer.get('/api/saved-searches')).json());
    expect(list.find((s) => s._id === id)?.alerts).toBe('off');
    expect(list.find((s) => s._id === other)?.alerts).toBe('instant');

    await listCar(seller, {
      name: 'Honda Accord',
      make: 'Honda',
      model: 'Accord',
      reprice: 12_000_00,
      year: 2016,
    });
    await app.runAlerts();
    expect(
      (await mailTo(app, buyer.account.email)).filter((m) => m.subject.includes('"Hondas"')),
    ).toHaveLength(1);
  });

  it('stops saved-car mail from its link, and forgets a deleted buyer and a removed car', async () => {
    const buyer = await buyerWithMail(app);
    const carId = await listCar(seller, {
      name: 'Fiat Panda',
      make: 'Fiat',
      model: 'Panda',
      reprice: 5_000_00,
      year: 2015,
    });
    const otherCar = await listCar(seller, {
      name: 'Fiat 500',
      make: 'Fiat',
      model: '500',
      reprice: 6_000_00,
      year: 2016,
    });
    await put(buyer, `/api/saved-cars/${carId}`);
    await put(buyer, `/api/saved-cars/${otherCar}`);
    await patch(seller, `/api/listings/${carId}`, { reprice: 4_500_00 });
    await app.runAlerts();
    const [mail] = await mailTo(app, buyer.account.email);
    expect(mail!.subject).toBe('Price drop: Fiat Panda');
    const stopped = await new TestClient(app).post(
      `/api/unsubscribe?token=${unsubscribeLink(mail!)}`,
    );
    expect(await stopped.json()).toEqual({
      unsubscribed: true,
      what: 'mail about your saved cars',
    });
    await patch(seller, `/api/listings/${otherCar}`, { reprice: 5_500_00 });
    await app.runAlerts();
    expect(await mailTo(app, buyer.account.email)).toHaveLength(1);

    // An admin removes one car: it leaves the buyer's saved cars.
    const admin = await signInAs(app, 'admin@demo.local');
    expect((await admin.post(`/api/listings/${carId}/remove`, {})).status).toBe(200);
    const saved = SavedCarListSchema.parse(await (await buyer.get('/api/saved-cars')).json());
    expect(saved.map((s) => s.listingId)).toEqual([otherCar]);

    // A deleted buyer's saves go with the account; no mail follows.
    const deleted = await buyerWithMail(app);
    await put(deleted, `/api/saved-cars/${otherCar}`);
    await saveSearch(deleted, 'Fiats', 'make=Fiat');
    const [person] = await app.database.db
      .select()
      .from(user)
      .where(eq(user.email, deleted.account.email));
    expect((await del(admin, `/api/user/remove/${person!.id}`)).status).toBe(200);
    const left = await app.database.db
      .select()
      .from(savedCar)
      .where(and(eq(savedCar.userId, person!.id)));
    expect(left).toHaveLength(0);
    expect(
      await app.database.db.select().from(savedSearch).where(eq(savedSearch.userId, person!.id)),
    ).toHaveLength(0);
    await listCar(seller, {
      name: 'Fiat Tipo',
      make: 'Fiat',
      model: 'Tipo',
      reprice: 7_000_00,
      year: 2018,
    });
    await patch(seller, `/api/listings/${otherCar}`, { reprice: 5_000_00 });
    await app.runAlerts();
    expect(await mailTo(app, deleted.account.email)).toHaveLength(0);
  });
});

/** Two servers on one PostgreSQL database, both running the worker at the same moment. */
describe('alert mail through a mail server', () => {
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpStandIn>>;
  let seller: TestClient;
  let busyRefuses = true;
  beforeAll(async () => {
    smtp = await startSmtpStandIn((to) => {
      if (to.startsWith('gone-')) return { code: 550, message: 'No such mailbox here' };
      if (to.startsWith('busy-') && busyRefuses) return { code: 451, message: 'Try later' };
      return 'accept';
    });
    app = await startTestApp({ env: { ...env, SMTP_URL: smtp.url } });
    seller = await signInAs(app, 'seller@demo.local');
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  it('sends the other alerts when a mailbox refuses, tries a busy one later, and sends none twice', async () => {
    const stamp = Date.now();
    const gone = await register(app, { email: `gone-${stamp}@example.com` });
    const busy = await register(app, { email: `busy-${stamp}@example.com` });
    const fine = await register(app, { email: `fine-${stamp}@example.com` });
    // Confirmed by hand: the sign-up mail went to the stand-in, which refuses two of them.
    await app.database.db
      .update(user)
      .set({ emailVerified: true })
      .where(
        inArray(
          user.email,
          [gone, busy, fine].map((buyer) => buyer.account.email),
        ),
      );
    for (const buyer of [gone, busy, fine]) await saveSearch(buyer, 'Subarus', 'make=Subaru');
    await listCar(seller, {
      name: 'Subaru Outback',
      make: 'Subaru',
      model: 'Outback',
      reprice: 14_000_00,
      year: 2018,
    });
    const alertsTo = (buyer: { account: { email: string } }) =>
      smtp.received.filter(
        (mail) => mail.to.includes(buyer.account.email) && mail.subject.includes('Subarus'),
      );
    await app.runAlerts();
    await app.runAlerts();
    expect([alertsTo(gone), alertsTo(busy), alertsTo(fine)].map((m) => m.length)).toEqual([
      0, 0, 1,
    ]);

    // The busy mailbox is tried again a minute later; here, now.
    busyRefuses = false;
    await app.database.db.update(mailQueue).set({ sendAfter: sql`now()` });
    await app.runAlerts();
    await app.runAlerts();
    expect([alertsTo(gone), alertsTo(busy), alertsTo(fine)].map((m) => m.length)).toEqual([
      0, 1, 1,
    ]);
    // The refused one is kept, given up on, for someone to read why.
    const left = await app.database.db.select().from(mailQueue);
    expect(left).toEqual([
      expect.objectContaining({
        recipient: gone.account.email,
        failedAt: expect.any(Date),
        lastError: expect.stringContaining('No such mailbox here'),
      }),
    ]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('alerts with two server processes', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ env });
    second = await startTestApp({
      env,
      reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl! },
    });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('sends exactly one instant alert per saved search and car', async () => {
    const seller = await signInAs(first, 'seller@demo.local');
    const buyers = await Promise.all(Array.from({ length: 6 }, () => buyerWithMail(second)));
    await Promise.all(buyers.map((buyer, i) => saveSearch(buyer, `Peugeots ${i}`, 'make=Peugeot')));
    for (let i = 0; i < 4; i++) {
      await listCar(seller, {
        name: `Peugeot 208 #${i}`,
        make: 'Peugeot',
        model: '208',
        reprice: 9_000_00 + i,
        year: 2019,
      });
      // Both workers at once, several times: each car must reach each search once.
      await Promise.all([
        first.runAlerts(),
        second.runAlerts(),
        first.runAlerts(),
        second.runAlerts(),
      ]);
    }
    // Both servers write to the same data directory's outbox.
    for (const buyer of buyers) {
      const mail = await mailTo(first, buyer.account.email);
      const listed = mail.flatMap((m) =>
        [...m.text.matchAll(/\/listing\/([0-9a-f-]{36})/g)].map((x) => x[1]),
      );
      expect(listed).toHaveLength(4);
      expect(new Set(listed).size).toBe(4);
    }
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarStatsSchema, MyListingListSchema, type CarStats } from '@carmarket/shared';
import { queryRows } from '../../db/client.ts';
import { errorOf, register, signInAs, type TestClient } from '../../test/client.ts';
import { newCar, validBooking } from '../../test/fixtures.ts';
import { REDIS_URL, redisAnswers } from '../../test/redis.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { startTwoServers } from '../../test/two-servers.ts';

/*
 * What a car draws (issue 34, decision 027): views counted once a person a day, never the seller's
 * or an admin's, written by the flush; and the stats page that shows them. The flush job's timer is
 * an hour here, so views reach the database only when a test flushes or closes the app.
 */

const NO_TIMED_FLUSH = { VIEW_FLUSH_SECONDS: '3600' };

async function statsOf(client: TestClient, carId: string): Promise<CarStats> {
  const response = await client.get(`/api/my/listings/${carId}/stats`);
  expect(response.status, await response.clone().text()).toBe(200);
  return CarStatsSchema.parse(await response.json());
}

async function view(client: TestClient, carId: string) {
  const response = await client.get(`/api/listings/${carId}`);
  expect(response.status).toBe(200);
}

/** The day `days` before `day` (both YYYY-MM-DD, UTC). */
const daysBefore = (day: string, days: number) =>
  new Date(Date.parse(day) - days * 86_400_000).toISOString().slice(0, 10);

describe('a car’s stats', () => {
  let app: TestApp;
  let seller: TestClient;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env: NO_TIMED_FLUSH });
    seller = await signInAs(app, 'seller@demo.local');
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  it('counts a person once a day, each person once, and never the seller or an admin', async () => {
    const car = await newCar(app, { seller });
    const [first, second] = await Promise.all([register(app), register(app)]);
    await view(first, car.id);
    await view(first, car.id);
    await view(second, car.id);
    await view(seller, car.id);
    await view(admin, car.id);
    await app.flushCarViews();
    await view(first, car.id);
    await app.flushCarViews();

    const stats = await statsOf(seller, car.id);
    expect(stats.views).toBe(2);
    expect(stats.viewsByDay).toHaveLength(30);
    // The server's own last day, not this process's clock: a run can cross UTC midnight.
    const lastDay = stats.viewsByDay.at(-1)!.day;
    expect(stats.viewsByDay.at(-1)).toEqual({ day: lastDay, views: 2 });
    expect(stats.viewsByDay[0]).toEqual({ day: daysBefore(lastDay, 29), views: 0 });
    expect(stats.viewsByDay.slice(0, -1).every((day) => day.views === 0)).toBe(true);
  });

  it('keeps the views of a failed flush for the next one: none lost, none twice', async () => {
    const [car, other] = await Promise.all([newCar(app, { seller }), newCar(app, { seller })]);
    const [first, second, third] = await Promise.all([register(app), register(app), register(app)]);
    await view(first, car.id);
    await view(second, car.id);
    await view(first, other.id);
    // The flush's insert fails while this trigger stands, as when the database is away.
    const db = app.database.db;
    await queryRows(
      db,
      sql.raw(`create function car_view_day_refuse() returns trigger language plpgsql as
                 $$ begin raise exception 'car_view_day refused by a test'; end $$`),
    );
    await queryRows(
      db,
      sql.raw(`create trigger car_view_day_refuse before insert on car_view_day
                 for each statement execute function car_view_day_refuse()`),
    );
    try {
      const failed = await app.flushCarViews().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(String((failed as Error | undefined)?.cause)).toMatch(/refused by a test/);
    } finally {
      await queryRows(db, sql.raw('drop trigger if exists car_view_day_refuse on car_view_day'));
      await queryRows(db, sql.raw('drop function if exists car_view_day_refuse()'));
    }
    expect((await statsOf(seller, car.id)).views).toBe(0);
    // A view counted between the failed flush and the next adds to the rows kept.
    await view(third, car.id);

    expect(await app.flushCarViews()).toBe(4);
    expect((await statsOf(seller, car.id)).views).toBe(3);
    expect((await statsOf(seller, other.id)).views).toBe(1);
    expect(await app.flushCarViews()).toBe(0);
    expect((await statsOf(seller, car.id)).views).toBe(3);
  });

  it('counts the saves, questions and bookings of the car', async () => {
    const car = await newCar(app, { seller });
    const other = await newCar(app, { seller });
    const buyer = await register(app);
    expect((await buyer.request(`/api/saved-cars/${car.id}`, { method: 'PUT' })).status).toBe(200);
    const asked = await buyer.post(`/api/listings/${car.id}/messages`, { body: 'Still for sale?' });
    expect(asked.status, await asked.clone().text()).toBe(200);
    const booked = await buyer.post('/api/category', validBooking(car.id));
    expect(booked.status, await booked.clone().text()).toBe(200);
    const another = await register(app);
    expect((await another.request(`/api/saved-cars/${car.id}`, { method: 'PUT' })).status).toBe(
      200,
    );

    expect(await statsOf(seller, car.id)).toMatchObject({
      saves: 2,
      conversations: 1,
      bookings: 1,
    });
    expect(await statsOf(seller, other.id)).toMatchObject({
      views: 0,
      saves: 0,
      conversations: 0,
      bookings: 0,
    });
    // A save taken back no longer counts.
    await another.request(`/api/saved-cars/${car.id}`, { method: 'DELETE' });
    expect((await statsOf(seller, car.id)).saves).toBe(1);
  });

  it('is its seller’s and admins’: another seller’s car does not exist, and a buyer is refused', async () => {
    const car = await newCar(app, { seller });
    const [otherSeller, buyer] = await Promise.all([
      register(app, { role: 'Seller' }),
      register(app),
    ]);
    const hidden = await otherSeller.get(`/api/my/listings/${car.id}/stats`);
    expect(hidden.status).toBe(404);
    expect((await errorOf(hidden)).message).toBe('That car was not found.');
    expect((await buyer.get(`/api/my/listings/${car.id}/stats`)).status).toBe(403);
    expect((await statsOf(admin, car.id)).viewsByDay).toHaveLength(30);
    const unknown = await seller.get('/api/my/listings/00000000-0000-4000-8000-000000000000/stats');
    expect(unknown.status).toBe(404);
  });
});

describe('My cars’ rows', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: NO_TIMED_FLUSH });
  });
  afterAll(() => app.close());

  it('show each car’s views, saves and questions, and sort by views, a page at a time', async () => {
    const seller = await register(app, { role: 'Seller' });
    const quiet = await newCar(app, { seller });
    const popular = await newCar(app, { seller });
    const asked = await newCar(app, { seller });
    const [first, second] = await Promise.all([register(app), register(app)]);
    await view(first, popular.id);
    await view(second, popular.id);
    await view(first, asked.id);
    await first.request(`/api/saved-cars/${asked.id}`, { method: 'PUT' });
    await first.post(`/api/listings/${asked.id}/messages`, { body: 'Is the price firm?' });
    await app.flushCarViews();

    const all = MyListingListSchema.parse(await (await seller.get('/api/my/listings')).json());
    const row = (id: string) => all.find((car) => car._id === id);
    expect(row(popular.id)).toMatchObject({ views: 2, saves: 0, conversations: 0 });
    expect(row(asked.id)).toMatchObject({ views: 1, saves: 1, conversations: 1 });
    expect(row(quiet.id)).toMatchObject({ views: 0, saves: 0, conversations: 0 });

    const page = await seller.get('/api/my/listings?sort=views&limit=2');
    const ids = async (response: Response) =>
      MyListingListSchema.parse(await response.json()).map((car) => car._id);
    const nextCursor = page.headers.get('x-next-cursor')!;
    expect(await ids(page)).toEqual([popular.id, asked.id]);
    const rest = await seller.get(`/api/my/listings?sort=views&limit=2&cursor=${nextCursor}`);
    expect(await ids(rest)).toEqual([quiet.id]);
  });
});

describe('views counted when the server closes', () => {
  let dataDir: string;
  let first: TestApp | undefined;
  let restarted: TestApp | undefined;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-views-'));
  });
  afterAll(async () => {
    // A test that failed before closing the first server leaves it open.
    await first?.close();
    await restarted?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('are written by the close, not lost', async () => {
    // On a directory (PGlite) or its own database, so a second server finds what the first wrote;
    // without the demo, whose photos take seconds to make.
    const env = { ...NO_TIMED_FLUSH, SEED_DEMO: 'false' };
    first = await startTestApp({ env, reuse: { dataDir } });
    const seller = await register(first, { role: 'Seller' });
    const car = await newCar(first, { seller });
    await view(await register(first), car.id);
    expect((await statsOf(seller, car.id)).views).toBe(0);
    const { databaseUrl } = first;
    const closing = first;
    first = undefined;
    await closing.close();

    restarted = await startTestApp({ env, reuse: { dataDir, databaseUrl } });
    const again = await signInAs(restarted, seller.account.email, seller.account.password);
    expect((await statsOf(again, car.id)).views).toBe(1);
    // Two servers each migrating a fresh database of their own: seconds each on a busy machine.
  }, 120_000);
});

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const redisUp = postgres && (await redisAnswers(REDIS_URL));

describe.skipIf(!redisUp)('views counted by two processes through Redis', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    [first, second] = await startTwoServers({ ...NO_TIMED_FLUSH, REDIS_URL });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('count one person’s views of a car through both processes once', async () => {
    const seller = await signInAs(first, 'seller@demo.local');
    const car = await newCar(first, { seller });
    const person = await register(first);
    const there = await signInAs(second, person.account.email, person.account.password);
    await view(person, car.id);
    await view(there, car.id);
    await Promise.all([first.flushCarViews(), second.flushCarViews()]);
    expect((await statsOf(seller, car.id)).views).toBe(1);
  });
});

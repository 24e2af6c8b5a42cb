import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listing } from '../../db/schema.ts';
import { apiCallers, apiRoutes } from '../../test/api-calls.ts';
import { errorOf, signInAs, TestClient } from '../../test/client.ts';
import { demoListings, newCar } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { ACCESS } from '../system/access-matrix.expected.ts';

/**
 * What a visitor without an account may call when the site opens browsing (BROWSE_SIGNED_OUT,
 * decision 028). With it closed, access-matrix.test.ts holds every one of these at 401 (and the
 * last test here, on both databases).
 */
const OPEN = [
  'GET /api/listings',
  'GET /api/listings/{id}',
  'GET /api/listings/{id}/similar',
  'GET /api/listings/cards',
  'GET /api/category/{id}',
  // Who sells the cars (issue 32): whoever may see cars.
  'GET /api/sellers/{id}',
];

/** Behind the test's "proxy" (TRUST_PROXY), each test searches from an address of its own. */
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

describe('browsing signed out (BROWSE_SIGNED_OUT=true)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: {
        BROWSE_SIGNED_OUT: 'true',
        ANONYMOUS_SEARCH_LIMIT_PER_MINUTE: '3',
        TRUST_PROXY: 'true',
        UPLOAD_QUOTA_PER_DAY: '1000',
      },
    });
  });
  afterAll(() => app.close());

  it('lets anonymous callers read cars and nothing more: every other route answers them as when closed', async () => {
    const callers = await apiCallers(app);
    const differences: string[] = [];
    for (const route of await apiRoutes(app)) {
      const row = ACCESS[route];
      if (!row) {
        differences.push(`${route}: no row in access-matrix.expected.ts`);
        continue;
      }
      const expected = OPEN.includes(route) ? 200 : Number(row.split(' ')[0]);
      const response = await callers.call(route, 'anonymous', from('192.0.2.1').headers);
      if (response.status !== expected) {
        differences.push(`${route}: expected ${expected}, answered ${response.status}`);
      }
      await response.body?.cancel();
    }
    expect(differences, differences.join('\n')).toEqual([]);
  }, 120_000);

  it('answers a visitor what it answers a buyer, and hides a removed car from them', async () => {
    const [car] = await demoListings(app);
    const buyer = await signInAs(app, 'buyer@demo.local');
    const visitor = new TestClient(app);
    for (const path of [
      `/api/listings/${car!.id}`,
      `/api/listings/${car!.id}/similar`,
      '/api/listings?sort=newest&limit=3&facets=1',
      `/api/category/${car!.categoryId}?limit=2`,
    ]) {
      const seen = await visitor.request(path, from('192.0.2.2'));
      expect(seen.status, path).toBe(200);
      // Nothing in these answers depends on who asks: nothing of a person to leave out.
      expect(await seen.json(), path).toEqual(await (await buyer.get(path)).json());
    }
    // A withdrawn car's page says so (sold-car-page.test.ts); a removed one is not found.
    const removed = await newCar(app);
    await app.database.db
      .update(listing)
      .set({ status: 'removed' })
      .where(eq(listing.id, removed.id));
    expect((await visitor.get(`/api/listings/${removed.id}`)).status).toBe(404);
    expect((await visitor.get(`/api/listings/${removed.id}/similar`)).status).toBe(404);
  });

  it('gives an address its own search budget: 429 with Retry-After past it, searches and category pages alike', async () => {
    const [car] = await demoListings(app);
    const visitor = new TestClient(app);
    const search = (path: string, address = '192.0.2.3') => visitor.request(path, from(address));
    expect((await search('/api/listings?limit=1')).status).toBe(200);
    expect((await search(`/api/category/${car!.categoryId}?limit=1`)).status).toBe(200);
    expect((await search('/api/listings?limit=1&facets=1')).status).toBe(200);
    for (const refused of [
      await search('/api/listings?limit=1'),
      await search(`/api/category/${car!.categoryId}?limit=1`),
    ]) {
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect((await errorOf(refused)).message).toMatch(/3 times in the last minute.*sign in/);
    }
    // Another address, and a person signed in at this one, search on.
    expect((await search('/api/listings?limit=1', '192.0.2.4')).status).toBe(200);
    const buyer = await signInAs(app, 'buyer@demo.local');
    expect((await buyer.request('/api/listings?limit=1', from('192.0.2.3'))).status).toBe(200);
  });
});

describe('browsing closed (the default)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('answers every browsing call 401 to a caller without a session, as the spec has it', async () => {
    const [car] = await demoListings(app);
    const [category] = (await (await app.request('/api/category')).json()) as Array<{
      _id: string;
    }>;
    for (const path of [
      '/api/listings',
      `/api/listings/${car!.id}`,
      `/api/listings/${car!.id}/similar`,
      `/api/category/${category!._id}`,
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(401);
    }
  });
});

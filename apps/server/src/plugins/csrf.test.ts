import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booking } from '../db/schema.ts';
import { rawRequest, register } from '../test/client.ts';
import { newCar, validBooking } from '../test/fixtures.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const EVIL = 'http://evil.example';

describe('cross-site request forgery', () => {
  let app: TestApp;
  let buyer: Awaited<ReturnType<typeof register>>;
  let bookingId: string;
  beforeAll(async () => {
    app = await startTestApp();
    const car = await newCar(app);
    buyer = await register(app);
    const booked = await buyer.post('/api/category', validBooking(car.id));
    bookingId = ((await booked.json()) as { insertedId: string }).insertedId;
  });
  afterAll(() => app.close());

  const status = async () =>
    (await app.database.db.select().from(booking).where(eq(booking.id, bookingId)))[0]!.status;

  /** A request as another site's page would make it: the victim's cookie rides along. */
  const forged = (method: string, path: string, headers: Record<string, string> = {}) =>
    rawRequest(app.baseUrl, method, path, {
      headers: { cookie: buyer.cookieHeader(), ...headers },
      json: {},
    });

  it('refuses every state-changing route with another site’s Origin, before it runs', async () => {
    const doc = (await (await app.request('/api/docs/json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => ({ method: method.toUpperCase(), path })),
    );
    // Booking, cancelling, paying, selling, uploading, administering: all of them.
    expect(routes.length).toBeGreaterThanOrEqual(15);
    for (const { method, path } of [
      ...routes,
      { method: 'POST', path: '/api/auth/sign-out' },
      { method: 'POST', path: '/api/auth/update-user' },
    ]) {
      const concrete = path.replace(/\{[^}]+\}/g, bookingId);
      const response = await forged(method, concrete, { origin: EVIL });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(JSON.parse(response.text).error.code, `${method} ${path}`).toBe('forbidden');
    }
    expect(await status()).toBe('pending');
  });

  it('refuses a cancel with no Origin and no Referer, or another site’s Referer', async () => {
    const path = `/api/booked/${bookingId}/cancel`;
    expect((await forged('POST', path)).status).toBe(403);
    expect((await forged('POST', path, { referer: `${EVIL}/page` })).status).toBe(403);
    expect((await forged('POST', path, { referer: 'not a url' })).status).toBe(403);
    expect(await status()).toBe('pending');
  });

  it('refuses a form post from any page: only JSON bodies are read', async () => {
    const response = await rawRequest(app.baseUrl, 'POST', '/api/category', {
      headers: {
        cookie: buyer.cookieHeader(),
        origin: app.baseUrl,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'listingId=1&userPhone=2',
    });
    expect(response.status).toBe(415);
    expect(JSON.parse(response.text).error.code).toBeTypeOf('string');
  });

  it('lets the site’s own pages through, by Origin or by Referer', async () => {
    const other = await register(app);
    const booked = await other.post('/api/category', validBooking((await newCar(app)).id));
    const id = ((await booked.json()) as { insertedId: string }).insertedId;
    const response = await rawRequest(app.baseUrl, 'POST', `/api/booked/${id}/cancel`, {
      headers: { cookie: other.cookieHeader(), referer: `${app.baseUrl}/dashboard/orders` },
    });
    expect(response.status).toBe(200);
  });

  it('lets a bearer token through whatever the Origin, and a request with no cookie', async () => {
    const { accessToken } = (await (
      await buyer.get(`/api/jwt?email=${buyer.account.email}`)
    ).json()) as { accessToken: string };
    const car = await newCar(app);
    const response = await rawRequest(app.baseUrl, 'POST', '/api/category', {
      headers: { authorization: `Bearer ${accessToken}`, origin: EVIL },
      json: validBooking(car.id),
    });
    expect(response.status).toBe(200);

    // An API client signs up with no cookie and no Origin: nothing to forge.
    const signUp = await rawRequest(app.baseUrl, 'POST', '/api/auth/sign-up/email', {
      json: {
        name: 'Api Client',
        email: `api-${Date.now()}@example.com`,
        password: 'long-enough-password-2026',
      },
    });
    expect(signUp.status).toBe(200);
  });
});

import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listing, user } from '../../db/schema.ts';
import { register, signInAs, TestClient } from '../../test/client.ts';
import { demoListings, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { jpegWithExif, uploadBytes } from '../../test/uploads.ts';
import { ACCESS, ROLES, type Role } from './access-matrix.expected.ts';

/**
 * Every route of the OpenAPI document, called as each kind of caller with real ids, against the
 * table in access-matrix.expected.ts. A route without a row fails, so a new route comes with its
 * access written down. Targets that a successful call would use up (a car, a booking, an account)
 * are made fresh for each call, so the calls do not depend on each other.
 */
describe('who may call what', () => {
  let app: TestApp;
  let clients: Record<Role, TestClient>;
  let buyerEmail: string;
  let categoryId: string;
  let demoCar: typeof listing.$inferSelect;
  let demoPhoto: string;

  beforeAll(async () => {
    app = await startTestApp({ env: { UPLOAD_QUOTA_PER_DAY: '1000' } });
    const buyer = await register(app);
    buyerEmail = buyer.account.email;
    const { accessToken } = (await (
      await buyer.get(`/api/jwt?email=${encodeURIComponent(buyerEmail)}`)
    ).json()) as { accessToken: string };
    const buyerBearer = new TestClient(app);
    buyerBearer.bearer = accessToken;
    const admin = await signInAs(app, 'admin@demo.local');
    const deleted = await register(app);
    const [gone] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, deleted.account.email));
    expect((await admin.request(`/api/user/remove/${gone!.id}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    clients = {
      anonymous: new TestClient(app),
      buyer,
      buyerBearer,
      otherBuyer: await register(app),
      seller: await signInAs(app, 'seller@demo.local'),
      otherSeller: await register(app, { role: 'Seller' }),
      admin,
      deleted,
    };
    const cars = await demoListings(app);
    demoCar = (await app.database.db.select().from(listing).where(eq(listing.id, cars[0]!.id)))[0]!;
    demoPhoto = demoCar.images[0]!.url;
    categoryId = demoCar.categoryId;
  });
  afterAll(() => app.close());

  /** A new car of the demo seller, on sale. */
  async function freshCar(): Promise<string> {
    const id = randomUUID();
    await app.database.db
      .insert(listing)
      .values({ ...demoCar, id, status: 'available', advertisedAt: null, createdAt: new Date() });
    return id;
  }
  /** A new pending booking of the buyer, for a new car; `started`: its payment page opened. */
  async function freshBooking(started = false): Promise<string> {
    const response = await clients.buyer.post('/api/category', validBooking(await freshCar()));
    const { insertedId } = (await response.json()) as { insertedId: string };
    if (started) await clients.buyer.post('/api/create-payment-intent', { bookingId: insertedId });
    return insertedId;
  }
  async function freshAccountId(role: 'Buyer' | 'Seller'): Promise<string> {
    const person = await register(app, { role });
    const [row] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, person.account.email));
    return row!.id;
  }

  /** The path and body of one call of a route, with fresh targets where a call uses them up. */
  async function callOf(method: string, path: string): Promise<{ path: string; body?: unknown }> {
    const route = `${method} ${path}`;
    const car = path.includes('/listings/{id}') ? await freshCar() : undefined;
    switch (route) {
      case 'GET /api/user/admin/{email}':
      case 'GET /api/user/buyer/{email}':
      case 'GET /api/user/seller/{email}':
        return { path: path.replace('{email}', encodeURIComponent(buyerEmail)) };
      case 'GET /api/jwt':
      case 'GET /api/booked':
        return { path: `${path}?email=${encodeURIComponent(buyerEmail)}` };
      case 'POST /api/user':
      case 'POST /api/google/user':
        return { path, body: { name: 'Matrix Person', email: buyerEmail, role: 'Buyer' } };
      case 'POST /api/category':
        return { path, body: validBooking(await freshCar()) };
      case 'GET /api/category/{id}':
        return { path: path.replace('{id}', categoryId) };
      case 'PATCH /api/listings/{id}':
      case 'PUT /api/listings/{id}':
        return { path: path.replace('{id}', car!), body: { location: 'Matrix City' } };
      case 'GET /api/booked/{id}':
      case 'POST /api/booked/{id}/cancel':
        return { path: path.replace('{id}', await freshBooking()) };
      case 'POST /api/product':
        return {
          path: `${path}?name=Microbus`,
          body: {
            name: 'Matrix Van',
            reprice: 1_000_000,
            orprice: 1_200_000,
            location: 'Matrix City',
            year: 2020,
            condition: 'Good',
            describe: 'A van for the access matrix.',
            images: [demoPhoto],
          },
        };
      case 'GET /api/all/user':
        return { path: `${path}?role=Buyer` };
      case 'PUT /api/user/verify/{id}':
        return { path: path.replace('{id}', await freshAccountId('Seller')) };
      case 'DELETE /api/user/remove/{id}':
        return { path: path.replace('{id}', await freshAccountId('Buyer')) };
      case 'POST /api/create-payment-intent':
        return { path, body: { bookingId: await freshBooking() } };
      case 'POST /api/payments/hold':
        return { path, body: { bookingId: await freshBooking(true) } };
      case 'POST /api/payments':
        return { path, body: { bookingId: await freshBooking(), transactionId: 'pi_matrix' } };
      case 'POST /api/payments/sandbox/confirm':
        return {
          path,
          body: {
            clientSecret: 'pi_matrix_secret_x',
            card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
          },
        };
      default:
        return { path: car ? path.replace('{id}', car) : path };
    }
  }

  it('answers each caller as the table says, for every route of the API', async () => {
    const doc = (await (await app.request('/api/docs/json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const photo = await jpegWithExif(64, 48);
    const actual: Record<string, string> = {};
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      const statuses: number[] = [];
      for (const role of ROLES) {
        const client = clients[role];
        if (route === 'POST /api/uploads') {
          statuses.push((await uploadBytes(client, photo)).status);
          continue;
        }
        const call = await callOf(method, path);
        const response = await client.request(call.path, {
          method,
          ...(call.body !== undefined || method !== 'GET' ? { json: call.body ?? {} } : {}),
        });
        statuses.push(response.status);
      }
      actual[route] = statuses.join(' ');
    }
    const missing = routes.filter((route) => !(route in ACCESS));
    const gone = Object.keys(ACCESS).filter((route) => !routes.includes(route));
    const table = routes.map((route) => `  '${route}': '${actual[route]}',`).join('\n');
    expect(missing, `routes without a row; the table as answered now:\n${table}`).toEqual([]);
    expect(gone, 'rows for routes that no longer exist').toEqual([]);
    for (const route of routes) {
      expect(`${route}: ${actual[route]}`).toBe(`${route}: ${ACCESS[route]}`);
    }
  });
});

import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { listing, user } from '../db/schema.ts';
import { register, signInAs, TestClient } from './client.ts';
import { demoListings, validBooking } from './fixtures.ts';
import type { TestApp } from './test-app.ts';

export const CALLERS = [
  'anonymous',
  'buyer',
  'buyerBearer',
  'otherBuyer',
  'seller',
  'otherSeller',
  'admin',
  'deleted',
] as const;
export type Caller = (typeof CALLERS)[number];

/** One call of a route: its path with real ids, and a valid body. */
export interface ApiCall {
  path: string;
  body?: unknown;
}

/**
 * Every kind of caller, signed in (a deleted account keeps its old cookie), and a valid call of
 * any route of the API with real ids: what the access matrix and the fuzzing start from. Targets
 * that a successful call uses up (a car, a booking, an account) are made fresh for each call.
 */
export async function apiCallers(app: TestApp) {
  const buyer = await register(app);
  const buyerEmail = buyer.account.email;
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
  const removed = await admin.request(`/api/user/remove/${gone!.id}`, { method: 'DELETE' });
  if (removed.status !== 200) throw new Error(`could not delete a test account: ${removed.status}`);
  const clients: Record<Caller, TestClient> = {
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
  const demoCar = (
    await app.database.db.select().from(listing).where(eq(listing.id, cars[0]!.id))
  )[0]!;
  const demoPhoto = demoCar.images[0]!.url;
  const categoryId = demoCar.categoryId;

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
  async function callOf(method: string, path: string): Promise<ApiCall> {
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

  return { clients, callOf };
}

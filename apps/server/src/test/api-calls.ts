import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { category, listing, messageBlock, user } from '../db/schema.ts';
import { register, signInAs, TestClient } from './client.ts';
import { demoListings, payFor, validBooking } from './fixtures.ts';
import type { TestApp } from './test-app.ts';
import { jpegWithExif, uploadBytes } from './uploads.ts';

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

/**
 * better-auth's settings calls under /api/auth (not in the OpenAPI document, which lists our own
 * routes): the access matrix and the fuzzing cover them as they do every other route.
 */
export const AUTH_ROUTES = [
  'POST /api/auth/update-user',
  'POST /api/auth/change-password',
  'POST /api/auth/change-email',
  'POST /api/auth/send-verification-email',
  'POST /api/auth/sign-in/magic-link',
  'GET /api/auth/list-sessions',
  'GET /api/auth/list-accounts',
  'POST /api/auth/revoke-session',
  'POST /api/auth/revoke-other-sessions',
  'POST /api/auth/delete-user',
] as const;

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
  /** Each caller's own address (the anonymous caller names one nobody has). */
  const emailOf: Record<Caller, string> = {
    anonymous: 'nobody-here@example.com',
    buyer: buyerEmail,
    buyerBearer: buyerEmail,
    otherBuyer: (clients.otherBuyer as TestClient & { account: { email: string } }).account.email,
    seller: 'seller@demo.local',
    otherSeller: (clients.otherSeller as TestClient & { account: { email: string } }).account.email,
    admin: 'admin@demo.local',
    deleted: deleted.account.email,
  };
  const cars = await demoListings(app);
  const demoCar = (
    await app.database.db.select().from(listing).where(eq(listing.id, cars[0]!.id))
  )[0]!;
  const demoPhoto = demoCar.images[0]!.url;
  const categoryId = demoCar.categoryId;

  /** A new car of the demo seller, on sale (or as `status` says). */
  async function freshCar(status: 'available' | 'withdrawn' = 'available'): Promise<string> {
    const id = randomUUID();
    await app.database.db
      .insert(listing)
      .values({ ...demoCar, id, status, advertisedAt: null, createdAt: new Date() });
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

  /** A new category with no cars, added straight into the database. */
  async function freshCategory(): Promise<string> {
    const name = `Matrix ${randomUUID()}`;
    const [row] = await app.database.db
      .insert(category)
      .values({ name, slug: name.toLowerCase().replaceAll(' ', '-'), icon: '/media/x.webp' })
      .returning({ id: category.id });
    return row!.id;
  }

  /** A new booking of the buyer, paid for (its money held until hand-over). */
  async function freshPaidBooking(): Promise<string> {
    const paid = await freshBooking();
    await payFor(clients.buyer, paid);
    return paid;
  }

  /** A new dispute of the buyer, about a new paid booking. */
  async function freshDispute(): Promise<string> {
    const paid = await freshPaidBooking();
    const response = await clients.buyer.post(`/api/booked/${paid}/dispute`, {
      reason: 'Matrix reason: not as described.',
    });
    return ((await response.json()) as { handover: { disputeId: string } }).handover.disputeId;
  }

  /** A new saved search of the buyer's. */
  async function freshSavedSearch(): Promise<string> {
    const response = await clients.buyer.post('/api/saved-searches', {
      name: 'Matrix search',
      query: 'make=Toyota',
      alerts: 'off',
    });
    return ((await response.json()) as { insertedId: string }).insertedId;
  }

  /**
   * A new conversation of the buyer with the demo seller, about a new car. A block an earlier
   * call made is lifted first: blocks are between two people, not of one conversation.
   */
  async function freshConversation(): Promise<string> {
    await app.database.db.delete(messageBlock);
    const response = await clients.buyer.post(`/api/listings/${await freshCar()}/messages`, {
      body: 'Is it still for sale?',
    });
    return ((await response.json()) as { conversationId: string }).conversationId;
  }

  /** A new report of a new conversation, by its buyer. */
  async function freshReport(): Promise<string> {
    const response = await clients.buyer.post(
      `/api/conversations/${await freshConversation()}/report`,
      { reason: 'Matrix report' },
    );
    return ((await response.json()) as { insertedId: string }).insertedId;
  }

  /**
   * The path and body of one call of a route, with fresh targets where a call uses them up;
   * `caller`, when a valid body depends on who sends it.
   */
  async function callOf(method: string, path: string, caller?: Caller): Promise<ApiCall> {
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
      case 'GET /api/listings/cards':
        return { path: `${path}?ids=${demoCar.id}` };
      case 'GET /api/sellers/{id}':
        return { path: path.replace('{id}', demoCar.sellerId) };
      case 'POST /api/categories':
        return { path, body: { name: `Matrix ${randomUUID().slice(0, 8)}` } };
      case 'PATCH /api/categories/{id}':
        return { path: path.replace('{id}', await freshCategory()), body: { position: 0 } };
      case 'DELETE /api/categories/{id}':
        return { path: path.replace('{id}', await freshCategory()) };
      case 'PATCH /api/listings/{id}':
      case 'PUT /api/listings/{id}':
        return { path: path.replace('{id}', car!), body: { location: 'Matrix City' } };
      case 'GET /api/booked/{id}':
      case 'POST /api/booked/{id}/cancel':
        return { path: path.replace('{id}', await freshBooking()) };
      case 'GET /api/booked/{id}/receipt':
      case 'POST /api/booked/{id}/handover':
        return { path: path.replace('{id}', await freshPaidBooking()) };
      case 'POST /api/booked/{id}/dispute':
        return {
          path: path.replace('{id}', await freshPaidBooking()),
          body: { reason: 'Matrix reason: not as described.' },
        };
      case 'POST /api/disputes/{id}/resolve':
        return {
          path: path.replace('{id}', await freshDispute()),
          body: { outcome: 'release', note: 'Matrix note' },
        };
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
      case 'GET /api/users/{id}/listings':
        return { path: path.replace('{id}', await freshAccountId('Seller')) };
      case 'POST /api/listings/{id}/relist':
        // Only a withdrawn car can be put back on sale.
        return { path: path.replace('{id}', await freshCar('withdrawn')) };
      case 'POST /api/listings/{id}/remove':
        return { path: path.replace('{id}', car!), body: { reason: 'Matrix reason' } };
      case 'GET /api/vin/{vin}':
        // A real VIN: a 2003 Honda Accord.
        return { path: path.replace('{vin}', '1HGCM82633A004352') };
      case 'GET /api/price-guide':
        // The small demo set has too few of any kind for a fit: past the policy, 404.
        return {
          path: `${path}?make=Toyota&model=HiAce&year=2019&mileageKm=96200&bodyType=Minibus`,
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
      case 'PUT /api/saved-cars/{listingId}':
      case 'DELETE /api/saved-cars/{listingId}':
        return { path: path.replace('{listingId}', await freshCar()) };
      case 'POST /api/saved-searches':
        return { path, body: { name: 'Matrix Toyotas', query: 'make=Toyota', alerts: 'off' } };
      case 'PATCH /api/saved-searches/{id}':
        return { path: path.replace('{id}', await freshSavedSearch()), body: { alerts: 'daily' } };
      case 'DELETE /api/saved-searches/{id}':
        return { path: path.replace('{id}', await freshSavedSearch()) };
      case 'POST /api/user/roles':
        // A role the caller holds already: access is what is checked, and nothing changes.
        return {
          path,
          body: { role: caller === 'seller' || caller === 'otherSeller' ? 'Seller' : 'Buyer' },
        };
      case 'POST /api/auth/update-user':
        return { path, body: { name: 'Matrix Person' } };
      case 'POST /api/auth/change-password':
        // A wrong current password: answered after access was granted, and nothing changes.
        return {
          path,
          body: { currentPassword: 'not the password', newPassword: 'matrix pass 2026' },
        };
      case 'POST /api/auth/change-email':
        // A wrong current password, as for change-password: checked once access is granted.
        return {
          path,
          body: { newEmail: `moved-${randomUUID()}@example.com`, currentPassword: 'not it' },
        };
      case 'POST /api/auth/send-verification-email':
      case 'POST /api/auth/sign-in/magic-link':
        // Each caller's own address: mail is limited per address.
        return { path, body: { email: emailOf[caller ?? 'buyer'] } };
      case 'POST /api/auth/revoke-session':
        // Nobody's session: as if someone else's.
        return { path, body: { id: randomUUID() } };
      case 'POST /api/auth/delete-user':
        return { path, body: { password: 'not the password' } };
      case 'POST /api/listings/{id}/messages':
        return { path: path.replace('{id}', car!), body: { body: 'Is it still for sale?' } };
      case 'GET /api/conversations/{id}':
      case 'GET /api/conversations/{id}/messages':
      case 'POST /api/conversations/{id}/read':
      case 'PUT /api/conversations/{id}/block':
      case 'DELETE /api/conversations/{id}/block':
        return { path: path.replace('{id}', await freshConversation()) };
      case 'POST /api/conversations/{id}/messages':
        return {
          path: path.replace('{id}', await freshConversation()),
          body: { body: 'Matrix message' },
        };
      case 'POST /api/conversations/{id}/report':
        return {
          path: path.replace('{id}', await freshConversation()),
          body: { reason: 'Matrix reason' },
        };
      case 'POST /api/reports/{id}/resolve':
        return { path: path.replace('{id}', await freshReport()) };
      case 'POST /api/unsubscribe':
        // Public: every caller reaches the token check; this one is not signed by the server.
        return { path: `${path}?token=s.00000000-0000-4000-8000-000000000000.${'x'.repeat(32)}` };
      default:
        return { path: car ? path.replace('{id}', car) : path };
    }
  }

  let photo: Promise<Buffer> | undefined;
  /**
   * Calls `route` ("METHOD /path") as `caller`: the call `callOf` makes (a small photo for the two
   * upload routes), `headers` added. The answer's body is the caller's to read or cancel.
   */
  async function call(route: string, caller: Caller, headers: Record<string, string> = {}) {
    const [method, path] = route.split(' ') as [string, string];
    const client = clients[caller];
    if (route === 'POST /api/uploads' || route === 'POST /api/uploads/profile-photo') {
      return uploadBytes(
        client,
        await (photo ??= jpegWithExif(64, 48)),
        'photo.jpg',
        'image/jpeg',
        path,
      );
    }
    const made = await callOf(method, path, caller);
    return client.request(made.path, {
      method,
      headers,
      ...(made.body !== undefined || method !== 'GET' ? { json: made.body ?? {} } : {}),
    });
  }

  return { clients, callOf, call };
}

/** Every route of the API as "METHOD /path": the OpenAPI document's, and better-auth's. */
export async function apiRoutes(app: TestApp): Promise<string[]> {
  const doc = (await (await app.request('/api/docs/json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return [
    ...Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    ),
    ...AUTH_ROUTES,
  ];
}

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listing, user } from '../../db/schema.ts';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { newCar, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

const NUL = 'a\u0000b';

describe('text the database cannot store', () => {
  let app: TestApp;
  let seller: TestClient;
  let buyer: Awaited<ReturnType<typeof register>>;
  beforeAll(async () => {
    app = await startTestApp();
    seller = await signInAs(app, 'seller@demo.local');
    buyer = await register(app);
  });
  afterAll(() => app.close());

  const carRow = async (id: string) =>
    (await app.database.db.select().from(listing).where(eq(listing.id, id)))[0]!;

  it('answers 400 naming the field, never 500, for a NUL in any text field', async () => {
    const car = await carRow((await newCar(app)).id);
    const product = {
      name: 'Quiet Hatch',
      reprice: 1_500_000,
      orprice: 2_000_000,
      location: 'Tacoma, WA',
      year: 2020,
      condition: 'Good',
      describe: 'One owner.',
      images: car.images.map((image) => image.url),
    };
    const calls: Array<[TestClient, string, string, unknown, string]> = [
      [
        buyer,
        'POST',
        '/api/user',
        { name: NUL, email: buyer.account.email, role: 'Buyer' },
        'name',
      ],
      [buyer, 'POST', '/api/auth/update-user', { name: NUL }, 'name'],
      [
        buyer,
        'POST',
        '/api/category',
        { ...validBooking(car.id), userLocation: NUL },
        'userLocation',
      ],
      [buyer, 'POST', '/api/payments', { bookingId: car.id, transactionId: NUL }, 'transactionId'],
      [
        buyer,
        'POST',
        '/api/payments/sandbox/confirm',
        {
          clientSecret: NUL,
          card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
        },
        'clientSecret',
      ],
      ...(['name', 'location', 'describe', 'seller'] as const).flatMap(
        (field): Array<[TestClient, string, string, unknown, string]> => [
          [seller, 'POST', '/api/product?name=Microbus', { ...product, [field]: NUL }, field],
          [seller, 'PUT', `/api/listings/${car.id}`, { [field]: NUL }, field],
          [seller, 'PATCH', `/api/listings/${car.id}`, { [field]: NUL }, field],
        ],
      ),
    ];
    for (const [client, method, path, json, field] of calls) {
      const response = await client.request(path, { method, json });
      const label = `${method} ${path} ${field}`;
      expect(response.status, label).toBe(400);
      const error = await errorOf(response);
      expect(error.code, label).toBe('validation-failed');
      if (!path.startsWith('/api/auth/')) expect(error.field, label).toBe(field);
    }
    const admin = await signInAs(app, 'admin@demo.local');
    expect((await admin.get(`/api/all/user?q=${encodeURIComponent(NUL)}`)).status).toBe(400);

    // Nothing was written: the car, the buyer's name.
    expect(await carRow(car.id)).toEqual(car);
    const [account] = await app.database.db
      .select({ name: user.name })
      .from(user)
      .where(eq(user.email, buyer.account.email));
    expect(account?.name).not.toContain('\u0000');
  });

  it('keeps line breaks in a description, and normalises what it stores', async () => {
    const car = await newCar(app);
    const response = await seller.request(`/api/listings/${car.id}`, {
      method: 'PATCH',
      json: { describe: 'One owner.\nWinter tyres.', location: '  Zu\u0308rich  ' },
    });
    expect(response.status).toBe(200);
    expect(await carRow(car.id)).toMatchObject({
      description: 'One owner.\nWinter tyres.',
      location: 'Zürich',
    });
  });

  it('answers an empty edit with 400 "nothing to change"', async () => {
    const car = await newCar(app);
    for (const json of [{}, { unknown: 1 }]) {
      const response = await seller.request(`/api/listings/${car.id}`, {
        method: 'PATCH',
        json,
      });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toMatch(/^Nothing to change/);
    }
  });
});

describe('a failure on our side', () => {
  it('answers 500 with a request id that our logs know', async () => {
    const app = await startTestApp();
    try {
      await app.database.close();
      const response = await new TestClient(app).get('/api/category');
      expect(response.status).toBe(500);
      const error = await errorOf(response);
      expect(error.code).toBe('internal');
      expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers.get('x-request-id')).toBe(error.requestId);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});

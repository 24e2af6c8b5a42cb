import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookingListSchema, BookingSchema } from '@carmarket/shared';
import { listing, user } from '../../db/schema.ts';
import { isSignUpMail, queuedMailSent } from '../../test/mail.ts';
import { readOutbox } from '../../adapters/mail.ts';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { demoListings, newCar, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe('booking a car', () => {
  let app: TestApp;
  let cars: Awaited<ReturnType<typeof demoListings>>;
  beforeAll(async () => {
    app = await startTestApp();
    cars = await demoListings(app);
  });
  afterAll(() => app.close());

  it('books with the price, name and email from the car and the session, not the body', async () => {
    const buyer = await register(app, { role: 'Buyer', name: 'Bea Buyer' });
    const car = await newCar(app);
    const response = await buyer.post('/api/category', {
      ...validBooking(car.id),
      // The spec's other fields are accepted and ignored.
      userName: 'Someone Else',
      userEmail: 'other@example.com',
      price: 1,
      img: 'https://evil.example/x.png',
      name: 'A cheaper car',
    });
    expect(response.status).toBe(200);
    const { acknowledged, insertedId } = (await response.json()) as {
      acknowledged: boolean;
      insertedId: string;
    };
    expect(acknowledged).toBe(true);

    const booked = BookingSchema.parse(await (await buyer.get(`/api/booked/${insertedId}`)).json());
    expect(booked).toMatchObject({
      listingId: car.id,
      name: car.name,
      userName: 'Bea Buyer',
      userEmail: buyer.account.email,
      userPhone: '+1 (555) 010-2030',
      userLocation: 'Downtown parking, 5th Ave',
      price: car.repriceCents,
      currency: 'USD',
      status: 'pending',
      paid: false,
      sellerName: 'Riverside Motors',
    });
    expect(booked.img).toMatch(/^\/media\//);

    // The notices go out just after the booking commits.
    await queuedMailSent(app);
    const mail = await readOutbox(app.outboxDir);
    expect(
      mail.find((m) => m.to === 'seller@demo.local' && m.subject.includes(car.name))?.text,
    ).toContain('Bea Buyer');
    expect(mail.find((m) => m.to === buyer.account.email && !isSignUpMail(m))?.subject).toBe(
      `You booked ${car.name}`,
    );
  });

  it('lets only buyer accounts book', async () => {
    const car = await newCar(app);
    for (const client of [
      await signInAs(app, 'seller@demo.local'),
      await register(app, { role: 'Seller' }),
      await signInAs(app, 'admin@demo.local'),
      await register(app, { role: undefined }),
    ]) {
      const response = await client.post('/api/category', validBooking(car.id));
      expect(response.status).toBe(403);
      expect(await errorOf(response)).toMatchObject({
        code: 'forbidden',
        message: 'Only buyer accounts can book cars.',
      });
    }
    const anonymous = await new TestClient(app).post('/api/category', validBooking(car.id));
    expect(anonymous.status).toBe(401);
  });

  it('never lets anyone book their own car, whatever their role', async () => {
    // No call makes a buyer own a car today; the rule guards the day one account both sells and
    // buys, so the ownership is set up directly.
    const buyer = await register(app);
    const [me] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, buyer.account.email));
    const car = await newCar(app);
    await app.database.db.update(listing).set({ sellerId: me!.id }).where(eq(listing.id, car.id));
    const response = await buyer.post('/api/category', validBooking(car.id));
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toBe('You cannot book your own car.');
  });

  it('books available cars only', async () => {
    const buyer = await register(app);
    const [soldCar, withdrawnCar] = [await newCar(app), await newCar(app)];
    await app.database.db.update(listing).set({ status: 'sold' }).where(eq(listing.id, soldCar.id));
    const sold = await buyer.post('/api/category', validBooking(soldCar.id));
    expect(sold.status).toBe(409);
    expect((await errorOf(sold)).message).toMatch(/no longer available/);
    await app.database.db
      .update(listing)
      .set({ status: 'withdrawn' })
      .where(eq(listing.id, withdrawnCar.id));
    expect((await buyer.post('/api/category', validBooking(withdrawnCar.id))).status).toBe(404);
    const unknown = await buyer.post(
      '/api/category',
      validBooking('0d7c0a1e-2a52-4c51-9b0b-7f6f2a1d9e10'),
    );
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).field).toBe('listingId');
  });

  it('allows one open booking per buyer per car, and another after cancelling', async () => {
    const buyer = await register(app);
    const car = await newCar(app);
    const first = await buyer.post('/api/category', validBooking(car.id));
    expect(first.status).toBe(200);
    const again = await buyer.post('/api/category', validBooking(car.id));
    expect(again.status).toBe(409);
    expect((await errorOf(again)).code).toBe('conflict');
    // Several buyers may book the same car.
    expect((await (await register(app)).post('/api/category', validBooking(car.id))).status).toBe(
      200,
    );

    const { insertedId } = (await first.json()) as { insertedId: string };
    const cancelled = await buyer.post(`/api/booked/${insertedId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { status: string }).status).toBe('cancelled');
    expect((await buyer.post(`/api/booked/${insertedId}/cancel`)).status).toBe(409);
    expect((await buyer.post('/api/category', validBooking(car.id))).status).toBe(200);
  });

  it('names the open booking that stops a second one, for a link to it (rough edge 7)', async () => {
    const buyer = await register(app);
    const car = await newCar(app);
    const first = await buyer.post('/api/category', validBooking(car.id));
    const { insertedId } = (await first.json()) as { insertedId: string };
    const again = await buyer.post('/api/category', validBooking(car.id));
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatchObject({
      code: 'conflict',
      message: 'You already have an open booking for this car. See My Orders.',
      bookingId: insertedId,
    });
  });

  it('refuses racing duplicate bookings with exactly one success', async () => {
    const buyer = await register(app);
    const car = await newCar(app);
    const statuses = await Promise.all(
      Array.from({ length: 8 }, () =>
        buyer.post('/api/category', validBooking(car.id)).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
  });

  it('books once for a request retried with the same Idempotency-Key (rough edge 8)', async () => {
    const buyer = await register(app);
    const [car, second, third, fourth] = [
      await newCar(app),
      await newCar(app),
      await newCar(app),
      await newCar(app),
    ];
    const send = (key: string, listingId = car.id) =>
      buyer.request('/api/category', {
        method: 'POST',
        headers: { 'idempotency-key': key },
        json: validBooking(listingId),
      });
    // The answer to the first was lost (the buyer went offline); the page sends it again.
    const first = await send('retry-key-0001');
    expect(first.status).toBe(200);
    const { insertedId } = (await first.json()) as { insertedId: string };
    const retried = await send('retry-key-0001');
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ acknowledged: true, insertedId });

    // Several copies at once (a flaky network) still make one booking.
    const racing = await Promise.all(
      Array.from({ length: 6 }, () => send('retry-key-0002', second.id)),
    );
    expect(racing.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const ids = await Promise.all(
      racing.map(async (r) => (await r.json()) as { insertedId: string }),
    );
    expect(new Set(ids.map((r) => r.insertedId)).size).toBe(1);

    const mine = BookingListSchema.parse(
      await (await buyer.get(`/api/booked?email=${buyer.account.email}`)).json(),
    );
    expect(mine.map((b) => b.listingId).sort()).toEqual([car.id, second.id].sort());
    // One confirmation mail per booking, not one per copy.
    await queuedMailSent(app);
    const mail = await readOutbox(app.outboxDir);
    expect(mail.filter((m) => m.to === buyer.account.email && !isSignUpMail(m))).toHaveLength(2);

    // A new key is a new request: the one-open-booking rule answers it.
    expect((await send('retry-key-0003')).status).toBe(409);
    // A key belongs to the car it booked.
    const reused = await send('retry-key-0001', third.id);
    expect(reused.status).toBe(409);
    expect((await errorOf(reused)).field).toBe('idempotency-key');
    // Another buyer's key is theirs alone.
    const other = await register(app);
    const theirs = await other.request('/api/category', {
      method: 'POST',
      headers: { 'idempotency-key': 'retry-key-0001' },
      json: validBooking(car.id),
    });
    expect(theirs.status).toBe(200);
    expect(((await theirs.json()) as { insertedId: string }).insertedId).not.toBe(insertedId);

    for (const bad of ['short', 'x'.repeat(201), 'has space in it']) {
      const response = await send(bad, fourth.id);
      expect(response.status, bad).toBe(400);
      expect(await errorOf(response)).toMatchObject({
        code: 'validation-failed',
        field: 'idempotency-key',
      });
    }
  });

  it.each([
    [{ userPhone: '12345', userLocation: 'Main St' }, 'userPhone'],
    [{ userPhone: 'call me maybe', userLocation: 'Main St' }, 'userPhone'],
    [{ userPhone: '1'.repeat(21), userLocation: 'Main St' }, 'userPhone'],
    [{ userPhone: '+1 555 010 2030', userLocation: 'X' }, 'userLocation'],
    [{ userPhone: '+1 555 010 2030', userLocation: 'x'.repeat(121) }, 'userLocation'],
    [{ userPhone: '+1 555 010 2030' }, 'userLocation'],
    [{ userPhone: 5550102030, userLocation: 'Main St' }, 'userPhone'],
  ])('names the bad field of %o', async (fields, field) => {
    const buyer = await signInAs(app, 'buyer@demo.local');
    const response = await buyer.post('/api/category', { listingId: cars[6]!.id, ...fields });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'validation-failed', field });
  });

  it('never answers malformed bodies or ids with a 5xx', async () => {
    const buyer = await signInAs(app, 'buyer@demo.local');
    const bodies = [
      '',
      '{',
      'null',
      '[]',
      '{"listingId": null}',
      '{"listingId": "abc"}',
      '{"listingId": {"$gt": ""}}',
    ];
    for (const body of bodies) {
      const response = await buyer.request('/api/category', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status, body).toBeGreaterThanOrEqual(400);
      expect(response.status, body).toBeLessThan(500);
    }
    const form = await buyer.request('/api/category', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<listingId>1</listingId>',
    });
    expect(form.status).toBe(415);
    for (const id of ['abc', '1', 'null']) {
      expect((await buyer.get(`/api/booked/${id}`)).status).toBe(400);
      expect((await buyer.post(`/api/booked/${id}/cancel`)).status).toBe(400);
    }
  });
});

import { eq, inArray, sql, type AnyColumn } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carHold, listing, user } from '../../db/schema.ts';
import { errorOf, register, TestClient } from '../../test/client.ts';
import { declinesDelivered, newCar, TEST_CARD, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

type Buyer = TestClient & { account: { email: string } };

/**
 * Holds that cannot be recycled (issue 29), with the default limits: the test apps' raised
 * HOLD_LIMIT_PER_IP is emptied here, and an empty variable is an unset one. Behind a "proxy", so
 * each test holds from addresses of its own (X-Forwarded-For).
 */
describe('holds that cannot be recycled', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { TRUST_PROXY: 'true', HOLD_LIMIT_PER_DAY: '', HOLD_LIMIT_PER_IP: '' },
    });
  });
  afterAll(() => app.close());

  let lastAddress = 0;
  /** An address no other test holds from. */
  const newAddress = () => `198.51.100.${(lastAddress += 1)}`;

  async function book(buyer: TestClient, carId: string): Promise<string> {
    const response = await buyer.post('/api/category', validBooking(carId));
    expect(response.status).toBe(200);
    return ((await response.json()) as { insertedId: string }).insertedId;
  }

  /** Opens the payment page (holds nothing); answers the card form's client secret. */
  async function start(buyer: TestClient, bookingId: string): Promise<string> {
    const response = await buyer.post('/api/create-payment-intent', { bookingId });
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as { clientSecret: string }).clientSecret;
  }

  /** Sends the card form from `address`: `POST /api/payments/hold`. */
  function hold(buyer: TestClient, bookingId: string, address: string) {
    return buyer.request('/api/payments/hold', {
      method: 'POST',
      json: { bookingId },
      headers: { 'x-forwarded-for': address },
    });
  }

  async function cancel(buyer: TestClient, bookingId: string) {
    expect((await buyer.post(`/api/booked/${bookingId}/cancel`)).status).toBe(200);
  }

  /** A refusal's status, Retry-After and sentence. */
  async function refusal(response: Response) {
    const retryAfter = Number(response.headers.get('retry-after'));
    const error = await errorOf(response);
    return { status: response.status, retryAfter, ...error };
  }

  async function idOf(buyer: Buyer): Promise<string> {
    const [row] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, buyer.account.email));
    return row!.id;
  }

  /** Time passes for a buyer's holds: each was taken, lapses or ended `minutes` earlier. */
  async function age(buyer: Buyer, minutes: number) {
    const earlier = (column: AnyColumn) => sql`${column} - make_interval(mins => ${minutes})`;
    await app.database.db
      .update(carHold)
      .set({
        heldAt: earlier(carHold.heldAt),
        expiresAt: earlier(carHold.expiresAt),
        endedAt: earlier(carHold.endedAt),
      })
      .where(eq(carHold.buyerId, await idOf(buyer)));
  }

  const carRow = async (id: string) =>
    (await app.database.db.select().from(listing).where(eq(listing.id, id)))[0]!;

  it('a buyer who cancels cannot hold that car again for PAYMENT_HOLD_MINUTES after its last hold ends, while others can at once', async () => {
    const car = await newCar(app);
    const buyer = (await register(app)) as Buyer;
    const address = newAddress();
    const first = await book(buyer, car.id);
    await start(buyer, first);
    expect((await hold(buyer, first, address)).status).toBe(200);
    await cancel(buyer, first);

    // Booked again and sent again: no fresh 15 minutes.
    const again = await book(buyer, car.id);
    await start(buyer, again);
    const refused = await refusal(await hold(buyer, again, address));
    expect(refused).toMatchObject({ status: 429, code: 'too-many-requests' });
    expect(refused.retryAfter).toBeGreaterThan(14 * 60);
    expect(refused.retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(refused.retryAfterSeconds).toBe(refused.retryAfter);
    expect(refused.message).toBe(
      `You let the ${car.name} go a short while ago, so other buyers have a turn at it first. You can hold it again in 15 minutes.`,
    );
    expect((await carRow(car.id)).status).toBe('available');

    // Another buyer may hold it meanwhile, and give it back.
    const rival = await register(app);
    const rivals = await book(rival, car.id);
    await start(rival, rivals);
    expect((await hold(rival, rivals, newAddress())).status).toBe(200);
    await cancel(rival, rivals);

    // Fifteen minutes after the rival let it go too, the buyer may hold it again.
    await age(buyer, 15);
    expect((await hold(buyer, again, address)).status).toBe(429);
    await age(rival as Buyer, 15);
    expect((await hold(buyer, again, address)).status).toBe(200);
  });

  it('a lapsed hold cannot be taken again by its buyer for PAYMENT_HOLD_MINUTES after its end, swept or not', async () => {
    const car = await newCar(app);
    const buyer = (await register(app)) as Buyer;
    const address = newAddress();
    const bookingId = await book(buyer, car.id);
    await start(buyer, bookingId);
    expect((await hold(buyer, bookingId, address)).status).toBe(200);
    // The hold lapses, and the sweeper has not run yet.
    const lapsed = new Date(Date.now() - 1000);
    await app.database.db
      .update(listing)
      .set({ holdExpiresAt: lapsed })
      .where(eq(listing.id, car.id));
    await app.database.db
      .update(carHold)
      .set({ expiresAt: lapsed })
      .where(eq(carHold.bookingId, bookingId));

    const before = await refusal(await hold(buyer, bookingId, address));
    expect(before.status).toBe(429);
    expect(before.retryAfter).toBeGreaterThan(14 * 60);
    expect(before.message).toMatch(/You can hold it again in 15 minutes\.$/);

    await app.payments.sweep();
    expect((await carRow(car.id)).status).toBe('available');
    await start(buyer, bookingId);
    expect((await hold(buyer, bookingId, address)).status).toBe(429);

    await age(buyer, 15);
    const after = await hold(buyer, bookingId, address);
    expect(after.status).toBe(200);
    expect(Date.parse(((await after.json()) as { reservedUntil: string }).reservedUntil)).toBe(
      (await carRow(car.id)).holdExpiresAt!.getTime(),
    );
  });

  it('a declined card keeps the hold: the buyer tries another card within it, and it is not renewed', async () => {
    const car = await newCar(app);
    const buyer = await register(app);
    const address = newAddress();
    const bookingId = await book(buyer, car.id);
    const clientSecret = await start(buyer, bookingId);
    const held = await hold(buyer, bookingId, address);
    expect(held.status).toBe(200);
    const { reservedUntil } = (await held.json()) as { reservedUntil: string };

    const confirm = (number: string) =>
      new TestClient(app).post('/api/payments/sandbox/confirm', {
        clientSecret,
        card: { ...TEST_CARD, number },
      });
    expect((await confirm('4000 0000 0000 0002')).status).toBe(402);
    // The processor's news of the decline has reached our webhook.
    await expect.poll(() => declinesDelivered(app, clientSecret)).toBe(1);
    const intentId = clientSecret.split('_secret_')[0]!;
    expect(await carRow(car.id)).toMatchObject({ status: 'reserved', holdBookingId: bookingId });

    // The page asks again: the same payment, the same hold, never a longer one.
    expect(await start(buyer, bookingId)).toBe(clientSecret);
    const again = await hold(buyer, bookingId, address);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { reservedUntil: string }).reservedUntil).toBe(reservedUntil);
    expect((await confirm(TEST_CARD.number)).status).toBe(200);
    expect((await buyer.post('/api/payments', { bookingId, transactionId: intentId })).status).toBe(
      200,
    );
    expect((await carRow(car.id)).status).toBe('sold');
  });

  it('a buyer holds at most HOLD_LIMIT_PER_DAY (3) different cars in 24 hours', async () => {
    const cars = [await newCar(app), await newCar(app), await newCar(app), await newCar(app)];
    const buyer = (await register(app)) as Buyer;
    const address = newAddress();
    const bookings: string[] = [];
    for (const car of cars.slice(0, 3)) {
      const bookingId = await book(buyer, car.id);
      await start(buyer, bookingId);
      expect((await hold(buyer, bookingId, address)).status).toBe(200);
      await cancel(buyer, bookingId);
      bookings.push(bookingId);
    }
    const fourth = await book(buyer, cars[3]!.id);
    await start(buyer, fourth);
    const refused = await refusal(await hold(buyer, fourth, address));
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBeGreaterThan(23 * 3600);
    expect(refused.message).toBe(
      'You have held 3 cars in the last 24 hours, the most we allow in a day. You can hold another in 24 hours.',
    );
    expect((await carRow(cars[3]!.id)).status).toBe('available');

    // One of the three again, once it has waited: it counts once.
    await age(buyer, 15);
    const firstAgain = await book(buyer, cars[0]!.id);
    await start(buyer, firstAgain);
    expect((await hold(buyer, firstAgain, address)).status).toBe(200);
    await cancel(buyer, firstAgain);
    expect((await hold(buyer, fourth, address)).status).toBe(429);

    // A day after those holds, the fourth car can be held.
    await age(buyer, 24 * 60);
    expect((await hold(buyer, fourth, address)).status).toBe(200);
  });

  it('one address has at most HOLD_LIMIT_PER_IP (3) live holds, whoever asks; one given back frees a place', async () => {
    const address = newAddress();
    const buyers = [];
    for (let i = 0; i < 5; i += 1) {
      const buyer = await register(app);
      const bookingId = await book(buyer, (await newCar(app)).id);
      await start(buyer, bookingId);
      buyers.push({ buyer, bookingId });
    }
    for (const { buyer, bookingId } of buyers.slice(0, 3)) {
      expect((await hold(buyer, bookingId, address)).status).toBe(200);
    }
    const [, , , fourth, fifth] = buyers;
    const refused = await refusal(await hold(fourth!.buyer, fourth!.bookingId, address));
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBeGreaterThan(14 * 60);
    expect(refused.retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(refused.message).toBe(
      'Your network already holds 3 cars while their payments go through, the most at once. You can hold this one in 15 minutes, or sooner if one of those is paid or cancelled.',
    );

    // One of the three gives theirs back: a place is free, for one.
    await cancel(buyers[0]!.buyer, buyers[0]!.bookingId);
    expect((await hold(fourth!.buyer, fourth!.bookingId, address)).status).toBe(200);
    expect((await hold(fifth!.buyer, fifth!.bookingId, address)).status).toBe(429);
    // From another address, the same buyer may.
    expect((await hold(fifth!.buyer, fifth!.bookingId, newAddress())).status).toBe(200);
    const held = await app.database.db
      .select({ ip: carHold.ip })
      .from(carHold)
      .where(
        inArray(
          carHold.bookingId,
          buyers.map((b) => b.bookingId),
        ),
      );
    expect(held.filter((row) => row.ip === address)).toHaveLength(4);
  });
});

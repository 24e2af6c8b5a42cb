import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booking, payment, sandboxIntent } from '../../db/schema.ts';
import { readOutbox } from '../../adapters/mail.ts';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import {
  book,
  bookingOf,
  declinesDelivered,
  newCar,
  newSeller,
  paidBooking,
  TEST_CARD,
} from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { startPaying, hold, carRow, confirmCard, eventually } from './payments.test-helpers.ts';
import { waitForMail } from '../../test/mail.ts';

describe('paying for a booking with the sandbox processor', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('takes the amount from the booking, never from the client', async () => {
    const car = await newCar(app);
    const buyer = await book(app, car.id);
    const { response, body } = await startPaying(buyer, buyer.bookingId);
    expect(response.status).toBe(200);
    expect(body).toEqual({
      clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/),
      amount: car.repriceCents,
      currency: 'USD',
    });
    // A reload of the payment page gets the same intent back.
    const again = await startPaying(buyer, buyer.bookingId);
    expect(again.body.clientSecret).toBe(body.clientSecret);
  });

  it("lets only the booking's buyer start paying", async () => {
    const car = await newCar(app);
    const buyer = await book(app, car.id);
    // A stranger learns nothing of the booking; its car's seller and an admin, who may see it,
    // are told they may not pay for it.
    expect(
      (
        await (
          await register(app)
        ).post('/api/create-payment-intent', { bookingId: buyer.bookingId })
      ).status,
    ).toBe(404);
    for (const email of ['seller@demo.local', 'admin@demo.local']) {
      const response = await (
        await signInAs(app, email)
      ).post('/api/create-payment-intent', { bookingId: buyer.bookingId });
      expect(response.status).toBe(403);
    }
    expect(
      (await new TestClient(app).post('/api/create-payment-intent', { bookingId: buyer.bookingId }))
        .status,
    ).toBe(401);
    expect((await buyer.post('/api/create-payment-intent', { bookingId: 'nope' })).status).toBe(
      400,
    );
  });

  it.each([
    ['4000 0000 0000 0002', {}, 'card_declined', 'Your card was declined.'],
    ['4000 0000 0000 9995', {}, 'card_declined', 'Your card has insufficient funds.'],
    ['4242 4242 4242 4241', {}, 'incorrect_number', 'Your card number is incorrect.'],
    [
      '4242 4242 4242 4242',
      { expYear: 2020 },
      'invalid_expiry_year_past',
      "Your card's expiration year is in the past.",
    ],
    ['4242 4242 4242 4242', { cvc: '12' }, 'invalid_cvc', "Your card's security code is invalid."],
    [
      '4242 4242 4242 4242',
      { expMonth: 13 },
      'invalid_expiry_month',
      "Your card's expiration month is invalid.",
    ],
  ])('answers card %s %o with Stripe’s %s', async (number, overrides, code, message) => {
    const car = await newCar(app);
    const buyer = await book(app, car.id);
    const { body } = await startPaying(buyer, buyer.bookingId);
    expect((await hold(buyer, buyer.bookingId)).response.status).toBe(200);
    expect((await carRow(app, car.id)).status).toBe('reserved');
    const result = await confirmCard(app, body.clientSecret, {
      ...TEST_CARD,
      number,
      ...overrides,
    });
    expect(result.status).toBe(402);
    expect(result.body.error).toMatchObject({ type: 'card_error', code, message });
    // A failed payment keeps the car held for its buyer, who may try another card (issue 29),
    // once the processor's news of it has been handled.
    await expect.poll(() => declinesDelivered(app, body.clientSecret)).toBe(1);
    expect(await carRow(app, car.id)).toMatchObject({
      status: 'reserved',
      holdBookingId: buyer.bookingId,
    });
  });

  it('records a paid booking: car sold, other bookings closed, mails sent, repeat calls harmless', async () => {
    const car = await newCar(app);
    const buyer = await book(app, car.id);
    const rival = await book(app, car.id);
    const { body } = await startPaying(buyer, buyer.bookingId);
    const confirmed = await confirmCard(app, body.clientSecret);
    expect(confirmed.status).toBe(200);
    const intentId = confirmed.body.paymentIntent!.id;
    expect(intentId).toMatch(/^pi_/);

    const results = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await buyer.post('/api/payments', {
        bookingId: buyer.bookingId,
        transactionId: intentId,
        price: 1,
      });
      results.push({
        status: response.status,
        body: (await response.json()) as { transactionId: string; paidAt: string },
      });
    }
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.body.paidAt)).size).toBe(1);

    const mine = (await (await buyer.get(`/api/booked/${buyer.bookingId}`)).json()) as {
      status: string;
      paid: boolean;
      transactionId: string;
    };
    expect(mine).toMatchObject({ status: 'paid', paid: true, transactionId: intentId });
    expect(await carRow(app, car.id)).toMatchObject({
      status: 'sold',
      holdBookingId: null,
      advertisedAt: null,
    });
    const other = (await (await rival.get(`/api/booked/${rival.bookingId}`)).json()) as {
      status: string;
    };
    expect(other.status).toBe('closed');
    const payments = await app.database.db
      .select()
      .from(payment)
      .where(eq(payment.bookingId, buyer.bookingId));
    expect(payments.filter((p) => p.status === 'succeeded')).toHaveLength(1);

    const items = (
      await (await signInAs(app, 'seller@demo.local')).get('/api/bookedItem')
    ).json() as Promise<Array<{ _id: string; sold: boolean }>>;
    expect((await items).find((i) => i._id === buyer.bookingId)?.sold).toBe(true);
    const mail = await readOutbox(app.outboxDir);
    expect(
      mail.some((m) => m.to === buyer.account.email && m.subject === `Receipt: ${car.name}`),
    ).toBe(true);
    expect(
      mail.some((m) => m.to === 'seller@demo.local' && m.subject === `Sold: ${car.name}`),
    ).toBe(true);
    expect(
      mail.some((m) => m.to === rival.account.email && m.subject.includes('no longer available')),
    ).toBe(true);
    // The sold car cannot be booked or paid again.
    expect(
      (await rival.post('/api/create-payment-intent', { bookingId: rival.bookingId })).status,
    ).toBe(409);
  });

  it('mails the buyer and the seller where the money waits until the hand-over', async () => {
    const seller = await newSeller(app);
    const { car, buyer, bookingId, transactionId } = await paidBooking(app, {
      seller,
      repriceCents: 2_000_000,
    });
    const { paidAt, handover } = await bookingOf(buyer, bookingId);
    // As a reader in any time zone can take it: the day, and the time in UTC.
    const utc = (iso: string) => {
      const date = new Date(iso);
      const day = date.toLocaleDateString('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
      const time = date.toISOString().slice(11, 16);
      return `${day} at ${time} UTC`;
    };
    const origin = app.payments.deps.siteOrigin();

    const receipt = await waitForMail(app, buyer.account.email, /^Receipt: /);
    expect(receipt.subject).toBe(`Receipt: ${car.name}`);
    expect(receipt.text).toContain(`Transaction: ${transactionId}\nDate: ${utc(paidAt!)}\n`);
    expect(receipt.text).toContain(
      `confirm the hand-over in My Orders: ${origin}/dashboard/orders`,
    );
    expect(receipt.text).toContain(
      `released to the seller automatically on ${utc(handover!.releaseDueAt)}, unless you report a problem`,
    );

    const sold = await waitForMail(app, seller.account.email, /^Sold: /);
    expect(sold.text).toContain('Please arrange the hand-over with them');
    // 5 % of $20,000 is the fee; the rest is the seller's.
    expect(sold.text).toContain(
      'You are paid your share, $19,000 (the price less our fee of $1,000), when the buyer confirms the hand-over',
    );
    expect(sold.text).toContain(`automatically on ${utc(handover!.releaseDueAt)}`);
    expect(sold.text).toContain(
      `add a payout account on the Payouts page: ${origin}/dashboard/payouts`,
    );
  });

  it('records the payment from the webhook when the buyer closes the tab', async () => {
    const car = await newCar(app);
    const buyer = await book(app, car.id);
    const { body } = await startPaying(buyer, buyer.bookingId);
    await confirmCard(app, body.clientSecret);
    const paid = await eventually(
      async () =>
        ((await (await buyer.get(`/api/booked/${buyer.bookingId}`)).json()) as { paid: boolean })
          .paid,
      (value) => value,
    );
    expect(paid).toBe(true);
  });

  it('refuses made-up, foreign and unfinished transaction ids, changing nothing', async () => {
    const car = await newCar(app);
    const otherCar = await newCar(app);
    const buyer = await book(app, car.id);
    const { body } = await startPaying(buyer, buyer.bookingId);
    const intentId = body.clientSecret.split('_secret_')[0]!;

    const madeUp = await buyer.post('/api/payments', {
      bookingId: buyer.bookingId,
      transactionId: 'pi_madeup123',
    });
    expect(madeUp.status).toBe(400);
    expect((await errorOf(madeUp)).field).toBe('transactionId');

    const unfinished = await buyer.post('/api/payments', {
      bookingId: buyer.bookingId,
      transactionId: intentId,
    });
    expect(unfinished.status).toBe(409);

    // Someone else's successful payment cannot pay for this booking.
    const other = await book(app, otherCar.id);
    const otherIntent = await startPaying(other, other.bookingId);
    const done = await confirmCard(app, otherIntent.body.clientSecret);
    const foreign = await buyer.post('/api/payments', {
      bookingId: buyer.bookingId,
      transactionId: done.body.paymentIntent!.id,
    });
    expect(foreign.status).toBe(400);
    // Nor can it be recorded by someone who is not that booking's buyer.
    const stranger = await register(app);
    expect(
      (
        await stranger.post('/api/payments', {
          bookingId: other.bookingId,
          transactionId: done.body.paymentIntent!.id,
        })
      ).status,
    ).toBe(404);

    const [mine] = await app.database.db
      .select()
      .from(booking)
      .where(eq(booking.id, buyer.bookingId));
    expect(mine?.status).toBe('pending');
  });
});

describe('many buyers at once', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { DATABASE_POOL_SIZE: '20' } });
  });
  afterAll(() => app.close());

  it('gives exactly one hold when 50 buyers send the card form for one car together', async () => {
    const car = await newCar(app);
    const buyers = [];
    for (let i = 0; i < 50; i += 1) buyers.push(await book(app, car.id));
    for (const buyer of buyers) await startPaying(buyer, buyer.bookingId);
    const statuses = await Promise.all(
      buyers.map((b) => hold(b, b.bookingId).then((r) => r.response.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
  });

  it('gives exactly one paid booking when 50 confirmations race', async () => {
    const car = await newCar(app);
    const buyers = [];
    for (let i = 0; i < 50; i += 1) buyers.push(await book(app, car.id));
    // Each buyer holds a succeeded payment (made straight at the processor, as if holds had lapsed).
    const intents: string[] = [];
    for (const buyer of buyers) {
      const intent = await app.payments.deps.gateway.createIntent({
        amountCents: car.repriceCents,
        currency: 'USD',
        bookingId: buyer.bookingId,
        idempotencyKey: `race-${buyer.bookingId}`,
      });
      await app.database.db
        .update(sandboxIntent)
        .set({ status: 'succeeded' })
        .where(eq(sandboxIntent.id, intent.id));
      intents.push(intent.id);
    }
    const statuses = await Promise.all(
      buyers.map((buyer, i) =>
        buyer
          .post('/api/payments', { bookingId: buyer.bookingId, transactionId: intents[i] })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const paid = await app.database.db
      .select()
      .from(booking)
      .where(and(eq(booking.listingId, car.id), eq(booking.status, 'paid')));
    expect(paid).toHaveLength(1);
    const refunded = await app.database.db
      .select()
      .from(payment)
      .where(eq(payment.status, 'refunded'));
    expect(refunded.length).toBeGreaterThanOrEqual(49);
  });
});

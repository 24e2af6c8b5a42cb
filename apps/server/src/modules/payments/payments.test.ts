import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  booking,
  listing,
  payment,
  processedEvent,
  sandboxEvent,
  sandboxIntent,
} from '../../db/schema.ts';
import type { SandboxGateway } from '../../adapters/sandbox-gateway.ts';
import { readOutbox } from '../../adapters/mail.ts';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { declinesDelivered, newCar, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { signPayload } from '../../adapters/webhook-signature.ts';

const VISA = {
  number: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: new Date().getFullYear() + 2,
  cvc: '123',
};

async function book(app: TestApp, listingId: string) {
  const buyer = await register(app);
  const response = await buyer.post('/api/category', validBooking(listingId));
  const { insertedId } = (await response.json()) as { insertedId: string };
  return Object.assign(buyer, { bookingId: insertedId });
}

async function startPaying(client: TestClient, bookingId: string) {
  const response = await client.post('/api/create-payment-intent', { bookingId, price: 1 });
  return {
    response,
    body: (await response.clone().json()) as {
      clientSecret: string;
      amount: number;
      currency: string;
    },
  };
}

/** `POST /api/payments/hold`: what the payment page asks as the card form is sent. */
async function hold(client: TestClient, bookingId: string) {
  const response = await client.post('/api/payments/hold', { bookingId });
  return {
    response,
    body: (await response.clone().json()) as { reservedUntil: string },
  };
}

async function carRow(app: TestApp, id: string) {
  return (await app.database.db.select().from(listing).where(eq(listing.id, id)))[0]!;
}

async function confirmCard(app: TestApp, clientSecret: string, card = VISA) {
  const response = await new TestClient(app).post('/api/payments/sandbox/confirm', {
    clientSecret,
    card,
    billingDetails: { name: 'Bea Buyer', email: 'bea@example.com' },
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      paymentIntent?: { id: string; status: string };
      error?: { type: string; code: string; message: string; decline_code?: string };
    },
  };
}

/** Waits for the sandbox's asynchronous webhook to have done its work. */
async function eventually<T>(
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() - started > timeoutMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

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
    const result = await confirmCard(app, body.clientSecret, { ...VISA, number, ...overrides });
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

describe('holds, webhooks and refunds', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('holds the car for one buyer as they send the card; another is told until when; a lapsed hold frees it', async () => {
    const car = await newCar(app);
    const first = await book(app, car.id);
    const second = await book(app, car.id);
    // Opening the payment page holds nothing: both buyers may.
    expect((await startPaying(first, first.bookingId)).response.status).toBe(200);
    expect((await startPaying(second, second.bookingId)).response.status).toBe(200);
    expect((await carRow(app, car.id)).status).toBe('available');

    const held = await hold(first, first.bookingId);
    expect(held.response.status).toBe(200);
    const until = Date.parse(held.body.reservedUntil);
    expect(until - Date.now()).toBeGreaterThan(14 * 60_000);
    expect((await carRow(app, car.id)).status).toBe('reserved');
    // Others still see it, reserved until the hold ends.
    const page = (await (await second.get(`/api/category/${car.categoryId}`)).json()) as {
      listings: Array<{ _id: string; status: string; reservedUntil: string | null }>;
    };
    expect(page.listings.find((listed) => listed._id === car.id)).toMatchObject({
      status: 'reserved',
      reservedUntil: held.body.reservedUntil,
    });

    for (const blocked of [
      (await hold(second, second.bookingId)).response,
      (await startPaying(second, second.bookingId)).response,
    ]) {
      expect(blocked.status).toBe(409);
      const error = await errorOf(blocked);
      expect(error.retryAfterSeconds).toBeGreaterThan(14 * 60);
      expect(error.message).toMatch(/within 15 minutes/);
      expect(Date.parse(String(error.reservedUntil))).toBe(until);
    }

    await app.database.db
      .update(listing)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(listing.id, car.id));
    // The sweep cancels the lapsed intent at the processor, whose event frees the car.
    await app.payments.sweep();
    expect(await carRow(app, car.id)).toMatchObject({
      status: 'available',
      holdBookingId: null,
    });
    // The lapsed intent was canceled, so it can no longer charge the first buyer.
    const [first_] = await app.database.db
      .select()
      .from(payment)
      .where(eq(payment.bookingId, first.bookingId));
    const [intent] = await app.database.db
      .select()
      .from(sandboxIntent)
      .where(eq(sandboxIntent.id, first_!.providerPaymentId));
    expect(intent?.status).toBe('canceled');
    // The second buyer's page, opened before, was not touched (it was never sent).
    expect((await hold(second, second.bookingId)).response.status).toBe(200);
  });

  it('never renews a hold: opening the page again, or sending again, keeps its end', async () => {
    const car = await newCar(app);
    const buyer = await book(app, car.id);
    for (let i = 0; i < 3; i += 1) {
      expect((await startPaying(buyer, buyer.bookingId)).response.status).toBe(200);
    }
    expect((await carRow(app, car.id)).status).toBe('available');
    const { body } = await hold(buyer, buyer.bookingId);
    expect(Date.parse(body.reservedUntil) - Date.now()).toBeGreaterThan(14 * 60_000);
    // Five minutes of the hold go by: a renewed hold would end later than this one does.
    const end = new Date(Date.parse(body.reservedUntil) - 5 * 60_000);
    await app.database.db.update(listing).set({ holdExpiresAt: end }).where(eq(listing.id, car.id));
    expect((await startPaying(buyer, buyer.bookingId)).response.status).toBe(200);
    const again = await hold(buyer, buyer.bookingId);
    expect(again.response.status).toBe(200);
    expect(again.body.reservedUntil).toBe(end.toISOString());
    expect((await carRow(app, car.id)).holdExpiresAt?.toISOString()).toBe(end.toISOString());
  });

  it('lets one buyer hold one car at a time, even asking for two at once', async () => {
    const car = await newCar(app);
    const secondCar = await newCar(app);
    const otherCar = await newCar(app);
    const otherSecondCar = await newCar(app);
    const buyer = await book(app, car.id);
    const second = (await (
      await buyer.post('/api/category', validBooking(secondCar.id))
    ).json()) as { insertedId: string };
    await startPaying(buyer, buyer.bookingId);
    await startPaying(buyer, second.insertedId);
    expect((await hold(buyer, buyer.bookingId)).response.status).toBe(200);
    const refused = await hold(buyer, second.insertedId);
    expect(refused.response.status).toBe(409);
    expect((await errorOf(refused.response)).message).toMatch(
      new RegExp(`already paying for the ${car.name}`),
    );
    expect((await carRow(app, secondCar.id)).status).toBe('available');

    // Another buyer asks for both of theirs in parallel: one hold.
    const other = await book(app, otherCar.id);
    const otherSecond = (await (
      await other.post('/api/category', validBooking(otherSecondCar.id))
    ).json()) as { insertedId: string };
    await startPaying(other, other.bookingId);
    await startPaying(other, otherSecond.insertedId);
    const statuses = await Promise.all([
      hold(other, other.bookingId).then((r) => r.response.status),
      hold(other, otherSecond.insertedId).then((r) => r.response.status),
    ]);
    expect(statuses.sort()).toEqual([200, 409]);
    const reserved = [await carRow(app, otherCar.id), await carRow(app, otherSecondCar.id)].filter(
      (car) => car.status === 'reserved',
    );
    expect(reserved).toHaveLength(1);
  });

  it('holds only a payment that was started, for its buyer', async () => {
    const car = await newCar(app);
    const buyer = await book(app, car.id);
    expect((await hold(buyer, buyer.bookingId)).response.status).toBe(409);
    await startPaying(buyer, buyer.bookingId);
    expect((await hold(await register(app), buyer.bookingId)).response.status).toBe(404);
    expect((await hold(new TestClient(app), buyer.bookingId)).response.status).toBe(401);
    expect((await carRow(app, car.id)).status).toBe('available');
  });

  it('frees the car at once when the buyer holding it cancels the booking', async () => {
    const car = await newCar(app);
    const buyer = await book(app, car.id);
    expect((await startPaying(buyer, buyer.bookingId)).response.status).toBe(200);
    expect((await hold(buyer, buyer.bookingId)).response.status).toBe(200);
    expect((await carRow(app, car.id)).status).toBe('reserved');
    expect((await buyer.post(`/api/booked/${buyer.bookingId}/cancel`)).status).toBe(200);
    expect(await carRow(app, car.id)).toMatchObject({
      status: 'available',
      holdBookingId: null,
    });
  });

  it('handles the same webhook event once, however often it comes', async () => {
    const car = await newCar(app);
    const buyer = await book(app, car.id);
    const { body } = await startPaying(buyer, buyer.bookingId);
    const intentId = body.clientSecret.split('_secret_')[0]!;
    // Settle the intent in the processor without letting it deliver its own event.
    await app.database.db
      .update(sandboxIntent)
      .set({ status: 'succeeded' })
      .where(eq(sandboxIntent.id, intentId));
    const [row] = await app.database.db
      .select()
      .from(sandboxIntent)
      .where(eq(sandboxIntent.id, intentId));
    const payload = JSON.stringify({
      id: 'evt_repeat_1',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: intentId,
          object: 'payment_intent',
          amount: row!.amountCents,
          currency: 'usd',
          status: 'succeeded',
          client_secret: row!.clientSecret,
          metadata: row!.metadata,
        },
      },
    });
    const deliver = (
      signature = signPayload(payload, app.payments.sandboxWebhookSecret),
      body = payload,
    ) =>
      app.request('/api/payments/webhook/sandbox', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body,
      });
    const outcomes = [];
    for (let i = 0; i < 3; i += 1)
      outcomes.push(((await (await deliver()).json()) as { outcome: string }).outcome);
    expect(outcomes).toEqual(['handled', 'duplicate', 'duplicate']);
    const payments = await app.database.db
      .select()
      .from(payment)
      .where(and(eq(payment.bookingId, buyer.bookingId), eq(payment.status, 'succeeded')));
    expect(payments).toHaveLength(1);
    const events = await app.database.db
      .select()
      .from(processedEvent)
      .where(eq(processedEvent.eventId, 'evt_repeat_1'));
    expect(events).toHaveLength(1);

    // Tampering is refused.
    const tampered = payload.replace('"amount":', '"amount":1');
    expect(
      (await deliver(signPayload(payload, app.payments.sandboxWebhookSecret), tampered)).status,
    ).toBe(400);
    expect((await deliver(signPayload(payload, 'whsec_wrong'))).status).toBe(400);
    expect((await deliver('t=1,v1=abc')).status).toBe(400);
    expect(
      (await deliver(signPayload(payload, app.payments.sandboxWebhookSecret, 1_000_000))).status,
    ).toBe(400);
    expect(
      (await app.request('/api/payments/webhook/stripe', { method: 'POST', body: payload })).status,
    ).toBe(404);
  });

  it('refunds a payment that succeeds after the car was sold to someone else', async () => {
    const car = await newCar(app);
    const late = await book(app, car.id);
    const winner = await book(app, car.id);
    const lateIntent = await startPaying(late, late.bookingId);
    // The late buyer's hold lapses before the sweeper has run; the winner takes the car.
    await app.database.db
      .update(listing)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(listing.id, car.id));
    const winnerIntent = await startPaying(winner, winner.bookingId);
    expect(winnerIntent.response.status).toBe(200);
    const won = await confirmCard(app, winnerIntent.body.clientSecret);
    expect(
      (
        await winner.post('/api/payments', {
          bookingId: winner.bookingId,
          transactionId: won.body.paymentIntent!.id,
        })
      ).status,
    ).toBe(200);

    const lateResult = await confirmCard(app, lateIntent.body.clientSecret);
    expect(lateResult.status).toBe(200);
    const recorded = await late.post('/api/payments', {
      bookingId: late.bookingId,
      transactionId: lateResult.body.paymentIntent!.id,
    });
    expect(recorded.status).toBe(409);
    expect((await errorOf(recorded)).message).toMatch(/refunded/);

    const [latePayment] = await app.database.db
      .select()
      .from(payment)
      .where(eq(payment.providerPaymentId, lateResult.body.paymentIntent!.id));
    expect(latePayment?.status).toBe('refunded');
    const [intent] = await app.database.db
      .select()
      .from(sandboxIntent)
      .where(eq(sandboxIntent.id, lateResult.body.paymentIntent!.id));
    expect(intent?.refunded).toBe(true);
    const paid = await app.database.db
      .select()
      .from(booking)
      .where(and(eq(booking.listingId, car.id), eq(booking.status, 'paid')));
    expect(paid.map((b) => b.id)).toEqual([winner.bookingId]);
    // The refund mail may go out just after the answer: wait for it rather than race it.
    await expect
      .poll(async () =>
        (await readOutbox(app.outboxDir)).some(
          (m) => m.to === late.account.email && m.subject.includes('refunded'),
        ),
      )
      .toBe(true);
  });
});

describe('when the news of a charge is lost', () => {
  let app: TestApp;
  let sandbox: SandboxGateway;
  let deliver: SandboxGateway['onEvent'];
  beforeAll(async () => {
    app = await startTestApp();
    sandbox = app.payments.deps.gateway as SandboxGateway;
    deliver = sandbox.onEvent;
  });
  afterEach(() => {
    sandbox.onEvent = deliver;
  });
  afterAll(() => app.close());

  /**
   * The processor's events stop reaching our webhook (a network fault, a misconfiguration).
   * Answers the events the processor tried to deliver meanwhile, in vain.
   */
  const loseWebhooks = () => {
    const lost: string[] = [];
    sandbox.onEvent = async (payload) => {
      lost.push(payload);
      return false;
    };
    return lost;
  };

  async function charges(bookingId: string) {
    const rows = await app.database.db
      .select()
      .from(sandboxIntent)
      .where(and(eq(sandboxIntent.status, 'succeeded')));
    const mine = rows.filter((row) => row.metadata.bookingId === bookingId);
    return {
      kept: mine.filter((row) => !row.refunded).map((row) => row.id),
      refunded: mine.filter((row) => row.refunded).map((row) => row.id),
    };
  }

  const bookingRow = async (id: string) =>
    (await app.database.db.select().from(booking).where(eq(booking.id, id)))[0];

  it('the sweeper asks the processor before freeing a lapsed hold, and completes the sale', async () => {
    const car = await newCar(app);
    loseWebhooks();
    const buyer = await book(app, car.id);
    const { body } = await startPaying(buyer, buyer.bookingId);
    expect((await hold(buyer, buyer.bookingId)).response.status).toBe(200);
    expect((await confirmCard(app, body.clientSecret)).status).toBe(200);
    await app.database.db
      .update(listing)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(listing.id, car.id));
    await app.payments.sweep();
    expect(await bookingRow(buyer.bookingId)).toMatchObject({ status: 'paid' });
    expect((await carRow(app, car.id)).status).toBe('sold');
    expect(await charges(buyer.bookingId)).toEqual({ kept: [expect.any(String)], refunded: [] });
  });

  it('refunds, once, a charge for a booking the buyer cancelled meanwhile', async () => {
    const car = await newCar(app);
    loseWebhooks();
    const buyer = await book(app, car.id);
    const { body } = await startPaying(buyer, buyer.bookingId);
    expect((await confirmCard(app, body.clientSecret)).status).toBe(200);
    expect((await buyer.post(`/api/booked/${buyer.bookingId}/cancel`)).status).toBe(200);
    await app.payments.sweep();
    await app.payments.sweep();
    expect(await bookingRow(buyer.bookingId)).toMatchObject({ status: 'cancelled' });
    expect(await charges(buyer.bookingId)).toEqual({ kept: [], refunded: [expect.any(String)] });
  });

  it('answers "already paid" to a reopened payment page instead of charging again', async () => {
    const car = await newCar(app);
    loseWebhooks();
    const buyer = await book(app, car.id);
    const { body } = await startPaying(buyer, buyer.bookingId);
    expect((await confirmCard(app, body.clientSecret)).status).toBe(200);
    const reopened = await startPaying(buyer, buyer.bookingId);
    expect(reopened.response.status).toBe(409);
    expect((await errorOf(reopened.response)).message).toMatch(/already paid/);
    expect(await bookingRow(buyer.bookingId)).toMatchObject({ status: 'paid' });
    expect((await charges(buyer.bookingId)).kept).toHaveLength(1);
  });

  it('the sandbox sends an event again until our webhook takes it', async () => {
    const car = await newCar(app);
    const lost = loseWebhooks();
    const buyer = await book(app, car.id);
    const { body } = await startPaying(buyer, buyer.bookingId);
    const confirmed = await confirmCard(app, body.clientSecret);
    expect(confirmed.status).toBe(200);
    // The sandbox has tried to tell our webhook of the charge, and nothing came of it.
    const charged = `"id":"${confirmed.body.paymentIntent!.id}"`;
    await expect.poll(() => lost.some((payload) => payload.includes(charged))).toBe(true);
    expect(await bookingRow(buyer.bookingId)).toMatchObject({ status: 'pending' });
    sandbox.onEvent = deliver;
    // Its first retry is due 5 s after the first try; bring it forward.
    await app.database.db.update(sandboxEvent).set({ nextAttemptAt: new Date(Date.now() - 1000) });
    expect(await sandbox.redeliver()).toBeGreaterThan(0);
    expect(await bookingRow(buyer.bookingId)).toMatchObject({ status: 'paid' });
    expect(await sandbox.redeliver()).toBe(0);
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

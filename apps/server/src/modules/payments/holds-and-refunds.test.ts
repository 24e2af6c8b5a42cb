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
import { errorOf, register, TestClient } from '../../test/client.ts';
import { book, newCar, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { signPayload } from '../../adapters/webhook-signature.ts';
import { startPaying, hold, carRow, confirmCard } from './payments.test-helpers.ts';

describe('holds, webhooks and refunds', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Behind one proxy: a buyer who holds a car another let go does so from another network
    // (decision 047).
    app = await startTestApp({ env: { TRUST_PROXY: '1' } });
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
    expect((await hold(second, second.bookingId, '203.0.113.7')).response.status).toBe(200);
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

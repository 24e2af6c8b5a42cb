import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../test/client.ts';
import {
  FAKE_WEBHOOK_SECRET as WEBHOOK_SECRET,
  startFakeStripe,
  startStripePayment,
  stripeTestEnv,
  type FakeStripe,
} from '../../test/fake-stripe.ts';
import { newCar, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe('the Stripe adapter', () => {
  let app: TestApp;
  let stripeApi: FakeStripe;
  const stripe = new Stripe('sk_test_fake');
  beforeAll(async () => {
    stripeApi = await startFakeStripe();
    app = await startTestApp({ env: stripeTestEnv(stripeApi) });
  });
  afterAll(async () => {
    await app.close();
    await stripeApi.close();
  });

  it('tells the payment page to use Stripe Elements with the publishable key', async () => {
    expect(await (await app.request('/api/payments/config')).json()).toEqual({
      provider: 'stripe',
      publishableKey: 'pk_test_fake',
      holdMinutes: 15,
    });
    expect((await app.request('/api/payments/sandbox/confirm', { method: 'POST' })).status).toBe(
      404,
    );
  });

  it('creates the intent on the server from the booking, with an idempotency key, and records it once Stripe says it succeeded', async () => {
    const car = await newCar(app);
    const buyer = await register(app);
    const { insertedId: bookingId } = (await (
      await buyer.post('/api/category', validBooking(car.id))
    ).json()) as { insertedId: string };
    const started = await buyer.post('/api/create-payment-intent', { bookingId, price: 1 });
    expect(started.status).toBe(200);
    expect(await started.json()).toEqual({
      clientSecret: 'pi_fake1_secret_abc',
      amount: car.repriceCents,
      currency: 'USD',
    });
    const created = stripeApi.requests.find((r) => r.path === '/v1/payment_intents')!;
    expect(created.body.get('amount')).toBe(String(car.repriceCents));
    expect(created.body.get('currency')).toBe('usd');
    expect(created.body.get('metadata[bookingId]')).toBe(bookingId);
    expect(created.idempotencyKey).toBe(`booking-${bookingId}-attempt-1`);
    expect(created.auth).toBe('Bearer sk_test_fake');

    const early = await buyer.post('/api/payments', { bookingId, transactionId: 'pi_fake1' });
    expect(early.status).toBe(409);
    stripeApi.intents.get('pi_fake1')!.status = 'succeeded';
    const recorded = await buyer.post('/api/payments', { bookingId, transactionId: 'pi_fake1' });
    expect(recorded.status).toBe(200);
    expect(
      (await buyer.post('/api/payments', { bookingId, transactionId: 'pi_doesnotexist' })).status,
    ).toBe(400);
  });

  it('handles webhooks verified on the raw body with Stripe’s signature, once per event', async () => {
    const car = await newCar(app);
    const { buyer, bookingId, intentId } = await startStripePayment(app, car.id);
    const intent = stripeApi.intents.get(intentId)!;
    intent.status = 'succeeded';
    const payload = JSON.stringify(
      {
        id: 'evt_stripe_1',
        object: 'event',
        type: 'payment_intent.succeeded',
        data: { object: intent },
      },
      null,
      2,
    );
    const deliver = (body: string, signature: string) =>
      app.request('/api/payments/webhook/stripe', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body,
      });
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });

    expect((await deliver(payload, header)).status).toBe(200);
    expect(((await (await deliver(payload, header)).json()) as { outcome: string }).outcome).toBe(
      'duplicate',
    );
    // The same JSON re-serialised is other bytes: refused.
    expect((await deliver(JSON.stringify(JSON.parse(payload)), header)).status).toBe(400);
    expect(
      (
        await deliver(
          payload,
          stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' }),
        )
      ).status,
    ).toBe(400);

    const booked = (await (await buyer.get(`/api/booked/${bookingId}`)).json()) as {
      paid: boolean;
      transactionId: string;
    };
    expect(booked).toMatchObject({ paid: true, transactionId: intent.id });
  });
});

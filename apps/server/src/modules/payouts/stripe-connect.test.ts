import { eq } from 'drizzle-orm';
import type { Balance, PayoutAccount, PayoutPage } from '@carmarket/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user } from '../../db/schema.ts';
import { register, type TestClient } from '../../test/client.ts';
import { startFakeStripe, type FakeStripe } from '../../test/fake-stripe.ts';
import { newCar, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { ledgerSum, newSeller } from './payouts.test-helpers.ts';

/*
 * Payouts through Stripe Connect (decision 037), against the local Stripe stand-in: an Express
 * account per seller, onboarded on Stripe's pages, and one transfer per hand-over.
 */

let app: TestApp;
let stripeApi: FakeStripe;
beforeAll(async () => {
  stripeApi = await startFakeStripe();
  app = await startTestApp({
    env: {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
      STRIPE_WEBHOOK_SECRET: 'whsec_test_secret_for_the_fake',
      STRIPE_API_URL: stripeApi.url,
      // The sweep runs when the test says.
      PAYOUT_SWEEP_SECONDS: '3600',
    },
  });
});
afterAll(async () => {
  await app.close();
  await stripeApi.close();
});

/** A car of `seller`, booked by a new buyer and paid through Stripe, then handed over. */
async function soldAndHandedOver(seller: TestClient, repriceCents: number) {
  const car = await newCar(app, { seller, repriceCents });
  const buyer = await register(app);
  const { insertedId: bookingId } = (await (
    await buyer.post('/api/category', validBooking(car.id))
  ).json()) as { insertedId: string };
  const { clientSecret } = (await (
    await buyer.post('/api/create-payment-intent', { bookingId })
  ).json()) as { clientSecret: string };
  const intentId = clientSecret.split('_secret_')[0]!;
  // What Stripe.js's confirmation does at Stripe's end.
  stripeApi.intents.get(intentId)!.status = 'succeeded';
  expect((await buyer.post('/api/payments', { bookingId, transactionId: intentId })).status).toBe(
    200,
  );
  expect((await buyer.post(`/api/booked/${bookingId}/handover`)).status).toBe(200);
  return bookingId;
}

const balanceOf = async (seller: TestClient) =>
  (await (await seller.get('/api/my/balance')).json()) as Balance;

describe('payouts through Stripe Connect', () => {
  it('holds a seller’s shares until their Express account can receive payouts, then sends one transfer per hand-over', async () => {
    const seller = await newSeller(app);
    const [sellerRow] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, seller.account.email));
    const sellerId = sellerRow!.id;

    // 5 % of $15,000.99 is $750.0495, rounded up to $750.05: the seller's share is $14,250.94.
    const first = await soldAndHandedOver(seller, 1_500_099);
    const second = await soldAndHandedOver(seller, 2_000_000);
    await app.payouts.sweep();
    expect(await balanceOf(seller)).toEqual({
      pending: 0,
      payable: 1_425_094 + 1_900_000,
      paidOut: 0,
      currency: 'USD',
    });
    expect(stripeApi.transfers).toEqual([]);

    const added = await seller.post('/api/my/payout-account');
    expect(added.status).toBe(200);
    const accountId = [...stripeApi.accounts.keys()].at(-1)!;
    expect(await added.json()).toEqual({ url: `https://connect.stripe.test/setup/e/${accountId}` });
    const created = stripeApi.requests.find((r) => r.path === '/v1/accounts')!;
    expect(created.idempotencyKey).toBe(`payout-account-${sellerId}`);
    expect(created.body.get('type')).toBe('express');
    expect(created.body.get('email')).toBe(seller.account.email);
    const link = stripeApi.requests.findLast((r) => r.path === '/v1/account_links')!;
    expect(link.body.get('account')).toBe(accountId);
    expect(link.body.get('return_url')).toBe(
      `${app.payouts.deps.siteOrigin()}/dashboard/payouts?account=done`,
    );
    expect(link.body.get('refresh_url')).toBe(
      `${app.payouts.deps.siteOrigin()}/dashboard/payouts?account=retry`,
    );

    // Onboarding not finished: nothing goes out, however often the sweep or the seller asks.
    expect((await (await seller.get('/api/my/payout-account')).json()) as PayoutAccount).toEqual({
      status: 'onboarding',
      provider: 'stripe',
    });
    await app.payouts.sweep();
    // The seller opens the set-up again: the same account, a new link.
    expect((await seller.post('/api/my/payout-account')).status).toBe(200);
    expect(stripeApi.accounts.size).toBe(1);
    expect(stripeApi.transfers).toEqual([]);
    expect((await balanceOf(seller)).payable).toBe(1_425_094 + 1_900_000);

    // Stripe has what it needs: the next sweep pays both hand-overs.
    stripeApi.setPayoutsEnabled(accountId, true);
    expect(await app.payouts.sweep()).toMatchObject({ paid: 2 });
    const sent = stripeApi.transfers.map((transfer) => ({
      amount: transfer.amount,
      currency: transfer.currency,
      destination: transfer.destination,
      transferGroup: transfer.transfer_group,
      idempotencyKey: transfer.idempotencyKey,
    }));
    expect(sent).toEqual(
      expect.arrayContaining([
        {
          amount: 1_425_094,
          currency: 'usd',
          destination: accountId,
          transferGroup: `booking_${first}`,
          idempotencyKey: `payout-${first}`,
        },
        {
          amount: 1_900_000,
          currency: 'usd',
          destination: accountId,
          transferGroup: `booking_${second}`,
          idempotencyKey: `payout-${second}`,
        },
      ]),
    );
    expect(sent).toHaveLength(2);
    expect(await balanceOf(seller)).toEqual({
      pending: 0,
      payable: 0,
      paidOut: 1_425_094 + 1_900_000,
      currency: 'USD',
    });
    expect(await (await seller.get('/api/my/payout-account')).json()).toEqual({
      status: 'ready',
      provider: 'stripe',
    });
    const page = (await (await seller.get('/api/my/payouts')).json()) as PayoutPage;
    // Claimed by one sweep, the two payouts were made at the same moment: in either order.
    expect(page.items.map((item) => [item.bookingId, item.amount, item.status])).toEqual(
      expect.arrayContaining([
        [second, 1_900_000, 'paid'],
        [first, 1_425_094, 'paid'],
      ]),
    );
    expect(page.items).toHaveLength(2);
    expect(page.items[0]).toMatchObject({
      provider: 'stripe',
      transferId: expect.stringMatching(/^tr_fake/),
    });

    // Once paid, paid: a later hand-over goes at once, and nothing is sent twice.
    const third = await soldAndHandedOver(seller, 1_000_000);
    await app.payouts.sweep();
    expect(stripeApi.transfers.map((transfer) => transfer.idempotencyKey)).toEqual(
      expect.arrayContaining([`payout-${first}`, `payout-${second}`, `payout-${third}`]),
    );
    expect(stripeApi.transfers).toHaveLength(3);
    expect((await balanceOf(seller)).paidOut).toBe(1_425_094 + 1_900_000 + 950_000);
    expect(await ledgerSum(app)).toBe(0);
  });
});

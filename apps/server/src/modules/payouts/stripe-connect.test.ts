import { eq, sql } from 'drizzle-orm';
import type { Balance, Booking, PayoutAccount, PayoutPage } from '@carmarket/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user } from '../../db/schema.ts';
import { errorOf, signInAs, type TestClient } from '../../test/client.ts';
import {
  payWithFakeStripe,
  startFakeStripe,
  stripeTestEnv,
  type FakeStripe,
} from '../../test/fake-stripe.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { bookingOf, newSeller } from '../../test/fixtures.ts';
import { ledgerSum } from './payouts.test-helpers.ts';

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
      ...stripeTestEnv(stripeApi),
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
  const { buyer, bookingId } = await payWithFakeStripe(app, stripeApi, { seller, repriceCents });
  expect((await buyer.post(`/api/booked/${bookingId}/handover`)).status).toBe(200);
  return bookingId;
}

/** A minute passed since the seller's account was last asked about at Stripe. */
async function aMinuteLater(accountId: string) {
  await app.database.db.execute(
    sql`update payout_account set updated_at = now() - interval '1 hour' where account_id = ${accountId}`,
  );
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

    // Stripe has what it needs: the next sweep (a minute on) pays both hand-overs.
    stripeApi.setPayoutsEnabled(accountId, true);
    await aMinuteLater(accountId);
    expect(await app.payouts.sweep()).toMatchObject({ paid: 2 });
    const sent = stripeApi.transfers.map((transfer) => ({
      amount: transfer.amount,
      currency: transfer.currency,
      destination: transfer.destination,
      transferGroup: transfer.transfer_group,
      source: transfer.source_transaction,
      idempotencyKey: transfer.idempotencyKey,
    }));
    expect(sent).toEqual(
      expect.arrayContaining([
        {
          amount: 1_425_094,
          currency: 'usd',
          destination: accountId,
          transferGroup: `booking_${first}`,
          source: expect.stringMatching(/^ch_/),
          idempotencyKey: `payout-${first}`,
        },
        {
          amount: 1_900_000,
          currency: 'usd',
          destination: accountId,
          transferGroup: `booking_${second}`,
          source: expect.stringMatching(/^ch_/),
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

/** A new seller whose Express account Stripe says can receive payouts. */
async function readySeller() {
  const seller = await newSeller(app);
  expect((await seller.post('/api/my/payout-account')).status).toBe(200);
  const accountId = [...stripeApi.accounts.keys()].at(-1)!;
  stripeApi.setPayoutsEnabled(accountId, true);
  await aMinuteLater(accountId);
  expect(await (await seller.get('/api/my/payout-account')).json()).toMatchObject({
    status: 'ready',
  });
  return { seller, accountId };
}

/** Time moved, not waited: the lease on the booking's payout has run out. */
async function payoutLeaseRunsOut(bookingId: string) {
  await app.database.db.execute(
    sql`update payout set updated_at = now() - interval '1 hour' where booking_id = ${bookingId}`,
  );
}

const transferCalls = (bookingId: string) =>
  stripeApi.requests.filter(
    (r) =>
      r.method === 'POST' &&
      r.path === '/v1/transfers' &&
      r.idempotencyKey === `payout-${bookingId}`,
  ).length;

const payoutStatus = async (seller: TestClient, bookingId: string) =>
  ((await (await seller.get('/api/my/payouts')).json()) as PayoutPage).items.find(
    (item) => item.bookingId === bookingId,
  )?.status;

describe('when Stripe refuses or forgets', () => {
  it('keeps a refused transfer sending, waits out its lease, and pays it once Stripe takes it', async () => {
    const { seller } = await readySeller();
    stripeApi.refuse('POST /v1/transfers', { status: 500, message: 'An error occurred.' });
    const { buyer, bookingId } = await payWithFakeStripe(app, stripeApi, { seller });
    expect((await buyer.post(`/api/booked/${bookingId}/handover`)).status).toBe(200);
    expect(transferCalls(bookingId)).toBe(1);
    expect(await payoutStatus(seller, bookingId)).toBe('sending');
    expect((await seller.get('/api/my/payout-account')).status).toBe(200);

    // Within the lease, no sweep asks again.
    await app.payouts.sweep();
    expect(transferCalls(bookingId)).toBe(1);
    // Past it, one does; refused again, the lease starts over.
    await payoutLeaseRunsOut(bookingId);
    await app.payouts.sweep();
    expect(transferCalls(bookingId)).toBe(2);
    await app.payouts.sweep();
    expect(transferCalls(bookingId)).toBe(2);
    expect(await payoutStatus(seller, bookingId)).toBe('sending');

    stripeApi.lift('POST /v1/transfers');
    await payoutLeaseRunsOut(bookingId);
    expect(await app.payouts.sweep()).toMatchObject({ paid: 1 });
    expect(await payoutStatus(seller, bookingId)).toBe('paid');
    expect(
      stripeApi.transfers.filter((t) => t.transfer_group === `booking_${bookingId}`),
    ).toHaveLength(1);
    expect(await ledgerSum(app)).toBe(0);
  });

  it('takes each payout’s lease just before its call, so a payout another sweep took is not sent by both', async () => {
    const { seller } = await readySeller();
    stripeApi.refuse('POST /v1/transfers', { status: 500 });
    const first = await payWithFakeStripe(app, stripeApi, { seller });
    const second = await payWithFakeStripe(app, stripeApi, { seller });
    for (const { buyer, bookingId } of [first, second]) {
      expect((await buyer.post(`/api/booked/${bookingId}/handover`)).status).toBe(200);
    }
    stripeApi.lift('POST /v1/transfers');
    // Both left sending: one sweep claims both, and sends one while the other waits its turn.
    for (const { bookingId } of [first, second]) await payoutLeaseRunsOut(bookingId);
    const keyOf = ({ bookingId }: { bookingId: string }) => `payout-${bookingId}`;
    const arrived = stripeApi.stallTransfers({ keys: [keyOf(first), keyOf(second)] });
    const slow = app.payouts.sweep();
    const [sentFirst, waiting] =
      (await arrived).idempotencyKey === keyOf(first) ? [first, second] : [second, first];

    // The slow sweep's batch outlasts the waiting payout's lease: another sweep takes it, and
    // its call is at Stripe when the slow sweep comes to it.
    await payoutLeaseRunsOut(waiting.bookingId);
    const other = app.payouts.sweep();
    await expect.poll(() => stripeApi.stalledKeys()).toEqual([keyOf(sentFirst), keyOf(waiting)]);
    stripeApi.resumeTransfers(keyOf(sentFirst));
    expect(await slow).toMatchObject({ paid: 1 });
    // Asked once when refused, once by the other sweep: not by the slow one.
    expect(transferCalls(waiting.bookingId)).toBe(2);

    stripeApi.resumeTransfers();
    expect(await other).toMatchObject({ paid: 1 });
    for (const { bookingId } of [first, second]) {
      expect(await payoutStatus(seller, bookingId)).toBe('paid');
      expect(
        stripeApi.transfers.filter((t) => t.transfer_group === `booking_${bookingId}`),
      ).toHaveLength(1);
    }
    expect(await ledgerSum(app)).toBe(0);
  });

  it('does not make a transfer twice when Stripe made it and forgot its key', async () => {
    const { seller } = await readySeller();
    // Stripe makes the transfer; its answer is lost, and a day passes: the key is forgotten.
    stripeApi.refuse('POST /v1/transfers', { status: 500, afterMaking: true });
    const { buyer, bookingId } = await payWithFakeStripe(app, stripeApi, { seller });
    expect((await buyer.post(`/api/booked/${bookingId}/handover`)).status).toBe(200);
    const made = stripeApi.transfers.filter((t) => t.transfer_group === `booking_${bookingId}`);
    expect(made).toHaveLength(1);
    expect(await payoutStatus(seller, bookingId)).toBe('sending');
    stripeApi.lift('POST /v1/transfers');
    stripeApi.forgetKeys();

    await payoutLeaseRunsOut(bookingId);
    expect(await app.payouts.sweep()).toMatchObject({ paid: 1 });
    expect(stripeApi.transfers.filter((t) => t.transfer_group === `booking_${bookingId}`)).toEqual(
      made,
    );
    const page = (await (await seller.get('/api/my/payouts')).json()) as PayoutPage;
    expect(page.items.find((item) => item.bookingId === bookingId)).toMatchObject({
      status: 'paid',
      transferId: made[0]!.id,
    });
  });

  it('leaves a refund Stripe refused resolving, and the sweep finishes it once Stripe takes it', async () => {
    const admin = await signInAs(app, 'admin@demo.local');
    const { buyer, bookingId, intentId } = await payWithFakeStripe(app, stripeApi);
    const disputed = await buyer.post(`/api/booked/${bookingId}/dispute`, {
      reason: 'The car never arrived at the meeting place.',
    });
    expect(disputed.status).toBe(200);
    const disputeId = ((await disputed.json()) as Booking).handover!.disputeId!;
    const refundCalls = () =>
      stripeApi.requests.filter(
        (r) => r.path === '/v1/refunds' && r.body.get('payment_intent') === intentId,
      ).length;
    const leaseRunsOut = () =>
      app.database.db.execute(
        sql`update dispute set updated_at = now() - interval '1 hour' where id = ${disputeId}`,
      );

    stripeApi.refuse('POST /v1/refunds', { status: 500 });
    const ruled = await admin.post(`/api/disputes/${disputeId}/resolve`, {
      outcome: 'refund',
      note: 'No car, no money.',
    });
    expect(ruled.status).toBe(200);
    expect(await ruled.json()).toMatchObject({ status: 'resolving', outcome: 'refund' });
    expect(refundCalls()).toBe(1);
    // The ruling's call may still be in flight: the sweep leaves it alone.
    expect((await app.payouts.sweep()).refunded).toBe(0);
    expect(refundCalls()).toBe(1);
    // Past the lease the sweep asks; refused, it waits out the lease again.
    await leaseRunsOut();
    expect((await app.payouts.sweep()).refunded).toBe(0);
    expect(refundCalls()).toBe(2);
    expect((await app.payouts.sweep()).refunded).toBe(0);
    expect(refundCalls()).toBe(2);

    stripeApi.lift('POST /v1/refunds');
    await leaseRunsOut();
    expect((await app.payouts.sweep()).refunded).toBe(1);
    expect((await bookingOf(buyer, bookingId)).handover?.state).toBe('refunded');
    expect(await ledgerSum(app)).toBe(0);
  });

  it('takes a card Stripe says is refunded already as refunded', async () => {
    const admin = await signInAs(app, 'admin@demo.local');
    const { buyer, bookingId } = await payWithFakeStripe(app, stripeApi);
    const disputed = await buyer.post(`/api/booked/${bookingId}/dispute`, {
      reason: 'The car never arrived at the meeting place.',
    });
    const disputeId = ((await disputed.json()) as Booking).handover!.disputeId!;
    // Stripe refunds the card, the answer is lost, and a day later the key is forgotten.
    stripeApi.refuse('POST /v1/refunds', { status: 500, afterMaking: true });
    const ruled = await admin.post(`/api/disputes/${disputeId}/resolve`, {
      outcome: 'refund',
      note: 'No car, no money.',
    });
    expect(await ruled.json()).toMatchObject({ status: 'resolving' });
    stripeApi.lift('POST /v1/refunds');
    stripeApi.forgetKeys();
    await app.database.db.execute(
      sql`update dispute set updated_at = now() - interval '1 hour' where id = ${disputeId}`,
    );
    expect((await app.payouts.sweep()).refunded).toBe(1);
    expect((await bookingOf(buyer, bookingId)).handover?.state).toBe('refunded');
  });

  it('answers a seller 503 without Stripe’s words when Stripe fails their payout account', async () => {
    for (const refusal of [
      { status: 401, message: 'Invalid API Key provided: sk_test_****fake' },
      { status: 500, message: 'An error occurred with our connection to Stripe.' },
    ]) {
      const seller = await newSeller(app);
      stripeApi.refuse('POST /v1/accounts', refusal);
      const refused = await seller.post('/api/my/payout-account');
      expect(refused.status).toBe(503);
      const text = await refused.clone().text();
      expect(text).not.toContain('sk_');
      expect(text).not.toContain('Stripe');
      expect(await errorOf(refused)).toMatchObject({
        code: 'unavailable',
        message: 'The payment provider did not answer; try again shortly.',
      });
      stripeApi.lift('POST /v1/accounts');
      expect((await seller.post('/api/my/payout-account')).status).toBe(200);
    }
  });

  it('asks Stripe about an onboarding account at most once a minute', async () => {
    const seller = await newSeller(app);
    const owed = await payWithFakeStripe(app, stripeApi, { seller });
    expect((await owed.buyer.post(`/api/booked/${owed.bookingId}/handover`)).status).toBe(200);
    expect((await seller.post('/api/my/payout-account')).status).toBe(200);
    const accountId = [...stripeApi.accounts.keys()].at(-1)!;
    const asked = () =>
      stripeApi.requests.filter((r) => r.method === 'GET' && r.path === `/v1/accounts/${accountId}`)
        .length;
    const before = asked();
    for (let i = 0; i < 3; i += 1) {
      expect(await (await seller.get('/api/my/payout-account')).json()).toMatchObject({
        status: 'onboarding',
      });
      await app.payouts.sweep();
    }
    expect(asked()).toBe(before);

    // A minute on: the page asks once, and neither it nor the sweep again for a minute.
    await aMinuteLater(accountId);
    expect((await seller.get('/api/my/payout-account')).status).toBe(200);
    await app.payouts.sweep();
    expect((await seller.get('/api/my/payout-account')).status).toBe(200);
    expect(asked()).toBe(before + 1);
    // The sweep's turn: once, for a seller owed money.
    await aMinuteLater(accountId);
    await app.payouts.sweep();
    await app.payouts.sweep();
    expect(asked()).toBe(before + 2);
  });
});

import { eq, sql } from 'drizzle-orm';
import type { Balance, MoneySummary, PayoutAccount, PayoutPage } from '@carmarket/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { sandboxTransfer, user } from '../../db/schema.ts';
import { codeOf, errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { queuedMailSent, mailsTo } from '../../test/mail.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { newSeller, paidBooking } from '../../test/fixtures.ts';
import { ledgerSum } from './payouts.test-helpers.ts';

/*
 * Payouts with the sandbox provider (decision 037): its accounts are ready at once and its
 * transfers are rows of sandbox_transfer, the built-in payout ledger.
 */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const balanceOf = async (seller: TestClient) =>
  (await (await seller.get('/api/my/balance')).json()) as Balance;

async function transfersOf(bookingId: string) {
  return app.database.db
    .select({
      amountCents: sandboxTransfer.amountCents,
      accountId: sandboxTransfer.accountId,
      idempotencyKey: sandboxTransfer.idempotencyKey,
    })
    .from(sandboxTransfer)
    .where(eq(sandboxTransfer.bookingId, bookingId));
}

async function handOver(buyer: TestClient, bookingId: string) {
  const response = await buyer.post(`/api/booked/${bookingId}/handover`);
  expect(response.status).toBe(200);
}

const money = async (admin: TestClient) =>
  (await (await admin.get('/api/admin/money')).json()) as MoneySummary;

describe('a seller without a payout account', () => {
  it('accumulates a payable balance, then is paid each share, less the fee rounded up, once they add one', async () => {
    const seller = await newSeller(app);
    const admin = await signInAs(app, 'admin@demo.local');
    const before = await money(admin);
    // 5 % of $12,345.67 is $617.2835: the platform's fee is rounded up to $617.29.
    const first = await paidBooking(app, { seller, repriceCents: 1_234_567 });
    const second = await paidBooking(app, { seller, repriceCents: 1_000_000 });
    expect(await balanceOf(seller)).toEqual({
      pending: 1_234_567 - 61_729 + 1_000_000 - 50_000,
      payable: 0,
      paidOut: 0,
      currency: 'USD',
    });

    await handOver(first.buyer, first.bookingId);
    await handOver(second.buyer, second.bookingId);
    await app.payouts.sweep();
    expect(await balanceOf(seller)).toEqual({
      pending: 0,
      payable: 1_172_838 + 950_000,
      paidOut: 0,
      currency: 'USD',
    });
    expect(await transfersOf(first.bookingId)).toEqual([]);
    const account = (await (await seller.get('/api/my/payout-account')).json()) as PayoutAccount;
    expect(account).toEqual({ status: 'none', provider: 'sandbox' });
    const owed = await money(admin);
    expect(owed.owedToSellers - before.owedToSellers).toBe(1_172_838 + 950_000);
    expect(owed.feesEarned - before.feesEarned).toBe(61_729 + 50_000);

    // The sandbox's onboarding is no onboarding: back to the Payouts page, the account ready.
    const added = await seller.post('/api/my/payout-account');
    expect(added.status).toBe(200);
    expect(((await added.json()) as { url: string }).url).toBe(
      `${app.payouts.deps.siteOrigin()}/dashboard/payouts?account=done`,
    );
    expect(await (await seller.get('/api/my/payout-account')).json()).toEqual({
      status: 'ready',
      provider: 'sandbox',
    });
    const [transfer] = await transfersOf(first.bookingId);
    expect(transfer).toMatchObject({
      amountCents: 1_172_838,
      idempotencyKey: `payout-${first.bookingId}`,
    });
    expect(transfer!.accountId).toMatch(/^acct_sandbox_/);
    expect(await transfersOf(second.bookingId)).toHaveLength(1);
    expect(await balanceOf(seller)).toEqual({
      pending: 0,
      payable: 0,
      paidOut: 1_172_838 + 950_000,
      currency: 'USD',
    });

    const page = (await (await seller.get('/api/my/payouts')).json()) as PayoutPage;
    expect(page.nextCursor).toBeNull();
    expect(page.items).toHaveLength(2);
    expect(page.items.find((item) => item.bookingId === first.bookingId)).toMatchObject({
      carName: first.car.name,
      amount: 1_172_838,
      feeCents: 61_729,
      currency: 'USD',
      status: 'paid',
      provider: 'sandbox',
      transferId: expect.stringMatching(/^tr_/),
      paidAt: expect.any(String),
    });
    const after = await money(admin);
    expect(after.paidOut - before.paidOut).toBe(1_172_838 + 950_000);
    expect(after.owedToSellers - before.owedToSellers).toBe(0);

    // Adding the account again, and sweeping again, pays nothing twice.
    expect((await seller.post('/api/my/payout-account')).status).toBe(200);
    await app.payouts.sweep();
    expect(await transfersOf(first.bookingId)).toHaveLength(1);
    expect((await balanceOf(seller)).paidOut).toBe(1_172_838 + 950_000);
    expect(await ledgerSum(app)).toBe(0);

    await queuedMailSent(app);
    const [email] = await app.database.db
      .select({ email: user.email })
      .from(user)
      .where(eq(user.name, seller.account.name));
    const sent = (await mailsTo(app, email!.email)).filter((mail) =>
      mail.subject.startsWith('Payout sent'),
    );
    expect(sent.map((mail) => mail.subject).sort()).toEqual(
      [
        `Payout sent: $11,728.38 for ${first.car.name}`,
        `Payout sent: $9,500 for ${second.car.name}`,
      ].sort(),
    );
    expect(sent[0]!.text).toContain('/dashboard/payouts');
  });
});

describe('a seller with a payout account', () => {
  it('is paid at hand-over, once, however many sweeps run at the same time', async () => {
    const seller = await newSeller(app);
    expect((await seller.post('/api/my/payout-account')).status).toBe(200);
    const { buyer, bookingId } = await paidBooking(app, { seller, repriceCents: 2_000_001 });
    expect(await balanceOf(seller)).toMatchObject({ pending: 2_000_001 - 100_001, payable: 0 });
    await handOver(buyer, bookingId);
    await Promise.all([app.payouts.sweep(), app.payouts.sweep(), app.payouts.sweep()]);
    expect(await transfersOf(bookingId)).toEqual([
      expect.objectContaining({ amountCents: 1_900_000, idempotencyKey: `payout-${bookingId}` }),
    ]);
    expect(await balanceOf(seller)).toEqual({
      pending: 0,
      payable: 0,
      paidOut: 1_900_000,
      currency: 'USD',
    });
    const [payouts] = await queryRows<{ n: number }>(
      app.database.db,
      sql`select count(*)::int as n from payout where booking_id = ${bookingId} and status = 'paid'`,
    );
    expect(payouts!.n).toBe(1);
    expect(await ledgerSum(app)).toBe(0);
  });

  it('pages their payouts newest first', async () => {
    const seller = await newSeller(app);
    expect((await seller.post('/api/my/payout-account')).status).toBe(200);
    const bookings: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { buyer, bookingId } = await paidBooking(app, { seller });
      await handOver(buyer, bookingId);
      bookings.push(bookingId);
    }
    const first = (await (await seller.get('/api/my/payouts?limit=2')).json()) as PayoutPage;
    expect(first.items.map((item) => item.bookingId)).toEqual([bookings[2], bookings[1]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await (
      await seller.get(`/api/my/payouts?limit=2&cursor=${first.nextCursor}`)
    ).json()) as PayoutPage;
    expect(second).toMatchObject({ nextCursor: null });
    expect(second.items.map((item) => item.bookingId)).toEqual([bookings[0]]);

    const forged = await seller.get('/api/my/payouts?cursor=bm90LWEtY3Vyc29y');
    expect(forged.status).toBe(400);
    // Another seller sees none of them.
    const other = await newSeller(app);
    expect(await (await other.get('/api/my/payouts')).json()).toEqual({
      items: [],
      nextCursor: null,
    });
  });
});

describe('who may see what', () => {
  it('keeps balances, payouts and payout accounts to sellers, and the money figures to admins', async () => {
    const buyer = await register(app);
    const seller = await newSeller(app);
    const anonymous = new TestClient(app);
    for (const path of ['/api/my/balance', '/api/my/payouts', '/api/my/payout-account']) {
      expect((await anonymous.get(path)).status).toBe(401);
      const refused = await buyer.get(path);
      expect(refused.status).toBe(403);
      expect((await errorOf(refused)).message).toBe('Payouts are for Seller accounts only.');
    }
    expect((await buyer.post('/api/my/payout-account')).status).toBe(403);
    expect((await seller.get('/api/admin/money')).status).toBe(403);
    expect((await anonymous.get('/api/admin/money')).status).toBe(401);
    const admin = await signInAs(app, 'admin@demo.local');
    expect(await money(admin)).toMatchObject({ currency: 'USD', openDisputes: expect.any(Number) });
  });

  it('lets a seller set up their payout account ten times an hour', async () => {
    const seller = await newSeller(app);
    for (let i = 0; i < 10; i += 1) {
      expect((await seller.post('/api/my/payout-account')).status).toBe(200);
    }
    const refused = await seller.post('/api/my/payout-account');
    expect(refused.status).toBe(429);
    expect(await codeOf(refused)).toBe('too-many-requests');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another seller's hour is their own.
    expect((await (await newSeller(app)).post('/api/my/payout-account')).status).toBe(200);
  });
});

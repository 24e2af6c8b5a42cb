import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payout, settlement } from '../../db/schema.ts';
import { codeOf, register, signInAs, TestClient } from '../../test/client.ts';
import { book, bookingOf, newCar, newSeller, paidBooking } from '../../test/fixtures.ts';
import { mailsTo, queuedMailSent, waitForMail } from '../../test/mail.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { auditOf, ledgerOf, ledgerSum, letDaysPass } from './payouts.test-helpers.ts';

const DAY_MS = 86_400_000;

describe('hand-over: the money held until the buyer has the car', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      // A fee with a fraction, to see its rounding; the sweep only when a test runs it.
      env: {
        PLATFORM_FEE_PERCENT: '2.5',
        HANDOVER_RELEASE_DAYS: '7',
        PAYOUT_SWEEP_SECONDS: '3600',
      },
    });
  });
  afterAll(() => app.close());

  it('holds the price, less a fee rounded up, until the buyer confirms; confirming twice is once', async () => {
    const seller = await newSeller(app);
    // 2.5 % of $12,345.67 is $308.64175: the platform's fee is $308.65, the seller's $12,037.02.
    const { car, buyer, bookingId } = await paidBooking(app, { seller, repriceCents: 1_234_567 });

    const paid = await bookingOf(buyer, bookingId);
    expect(paid.handover).toEqual({
      state: 'awaiting-handover',
      releaseDueAt: new Date(Date.parse(paid.paidAt!) + 7 * DAY_MS).toISOString(),
      releasedAt: null,
      releasedBy: null,
      refundedAt: null,
      feeCents: 30_865,
      sellerCents: 1_203_702,
      disputeId: null,
    });
    // The seller sees the same on their booked items.
    const items = (await (await seller.get('/api/bookedItem')).json()) as Array<{
      _id: string;
      handover: unknown;
    }>;
    expect(items.find((item) => item._id === bookingId)?.handover).toEqual(paid.handover);
    expect(await ledgerOf(app, bookingId)).toEqual([
      { movement: 'charge', account: 'cash', amountCents: 1_234_567 },
      { movement: 'charge', account: 'escrow', amountCents: -1_234_567 },
    ]);

    const first = await buyer.post(`/api/booked/${bookingId}/handover`);
    expect(first.status).toBe(200);
    const confirmed = (await first.json()) as typeof paid;
    expect(confirmed).toMatchObject({
      _id: bookingId,
      status: 'paid',
      handover: { state: 'released', releasedBy: 'buyer', feeCents: 30_865 },
    });
    expect(Date.parse(confirmed.handover!.releasedAt!)).not.toBeNaN();

    // Again, and several times at once (a double click, a retried request): the same answer.
    const again = await Promise.all(
      [1, 2, 3].map(() => buyer.post(`/api/booked/${bookingId}/handover`)),
    );
    for (const response of again) {
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(confirmed);
    }

    expect(await ledgerOf(app, bookingId)).toEqual([
      { movement: 'charge', account: 'cash', amountCents: 1_234_567 },
      { movement: 'charge', account: 'escrow', amountCents: -1_234_567 },
      { movement: 'release', account: 'escrow', amountCents: 1_234_567 },
      { movement: 'release', account: 'fees', amountCents: -30_865 },
      { movement: 'release', account: 'seller', amountCents: -1_203_702 },
    ]);
    expect(await auditOf(app, 'handover.confirmed', bookingId)).toHaveLength(1);

    // Both sides are told once; the seller, who has no payout account, is asked to add one.
    const sellerMail = await waitForMail(app, seller.account.email, /^Hand-over confirmed/);
    expect(sellerMail.subject).toBe(`Hand-over confirmed: ${car.name}`);
    expect(sellerMail.text).toContain('$12,037.02');
    expect(sellerMail.text).toContain('$308.65');
    expect(sellerMail.text).toMatch(/Add a payout account to be paid: http\S+\/dashboard\/payouts/);
    await waitForMail(app, buyer.account.email, /^Hand-over confirmed/);
    await queuedMailSent(app);
    for (const email of [buyer.account.email, seller.account.email]) {
      const told = (await mailsTo(app, email)).filter((m) => m.subject.startsWith('Hand-over'));
      expect(told).toHaveLength(1);
    }
    expect(await ledgerSum(app)).toBe(0);
  });

  it('releases by itself once the hand-over days have passed, and only then', async () => {
    const seller = await newSeller(app);
    const due = await paidBooking(app, { seller });
    const notYet = await paidBooking(app, { seller });

    await app.payouts.sweep();
    expect((await bookingOf(due.buyer, due.bookingId)).handover?.state).toBe('awaiting-handover');

    await letDaysPass(app, due.bookingId);
    // Once the days are over the buyer can no longer report a problem: the money is the seller's.
    const late = await due.buyer.post(`/api/booked/${due.bookingId}/dispute`, {
      reason: 'The car never came to the meeting place.',
    });
    expect(late.status).toBe(409);

    const swept = await app.payouts.sweep();
    expect(swept.released).toBeGreaterThanOrEqual(1);
    expect((await bookingOf(due.buyer, due.bookingId)).handover).toMatchObject({
      state: 'released',
      releasedBy: 'timer',
    });
    expect((await bookingOf(notYet.buyer, notYet.bookingId)).handover?.state).toBe(
      'awaiting-handover',
    );
    expect(await auditOf(app, 'handover.released', due.bookingId)).toHaveLength(1);

    // Another sweep releases nothing twice.
    await app.payouts.sweep();
    expect(
      (await ledgerOf(app, due.bookingId)).filter((entry) => entry.movement === 'release'),
    ).toHaveLength(3);
    expect(await auditOf(app, 'handover.released', due.bookingId)).toHaveLength(1);

    const sellerMail = await waitForMail(app, seller.account.email, /^Payment released/);
    expect(sellerMail.text).toContain(due.car.name);
    await waitForMail(app, due.buyer.account.email, /^Payment released to the seller/);
    // The buyer confirming afterwards changes nothing and is no error.
    const confirmed = await due.buyer.post(`/api/booked/${due.bookingId}/handover`);
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as { handover: unknown }).handover).toMatchObject({
      releasedBy: 'timer',
    });
    expect(await ledgerSum(app)).toBe(0);
  });

  it('releases each due booking once, however many sweeps run at the same time', async () => {
    const seller = await newSeller(app);
    const due = [
      await paidBooking(app, { seller }),
      await paidBooking(app, { seller }),
      await paidBooking(app, { seller }),
    ];
    for (const { bookingId } of due) await letDaysPass(app, bookingId);
    const sweeps = await Promise.all([1, 2, 3].map(() => app.payouts.sweep()));
    expect(sweeps.reduce((sum, sweep) => sum + sweep.released, 0)).toBe(3);
    for (const { buyer, bookingId } of due) {
      expect((await bookingOf(buyer, bookingId)).handover?.releasedBy).toBe('timer');
      expect(await auditOf(app, 'handover.released', bookingId)).toHaveLength(1);
    }
    expect(await ledgerSum(app)).toBe(0);
  });

  it('lets only the buyer confirm or report a problem', async () => {
    const { buyer, bookingId } = await paidBooking(app);
    const reason = { reason: 'The car is not the one in the photos.' };
    const seller = await signInAs(app, 'seller@demo.local');
    const admin = await signInAs(app, 'admin@demo.local');
    const stranger = await register(app);
    for (const [who, status] of [
      [seller, 403],
      [admin, 403],
      [stranger, 404],
      [new TestClient(app), 401],
    ] as const) {
      expect((await who.post(`/api/booked/${bookingId}/handover`)).status).toBe(status);
      expect((await who.post(`/api/booked/${bookingId}/dispute`, reason)).status).toBe(status);
    }
    // A malformed id is the request's fault; a booking that does not exist is not found.
    expect((await buyer.post('/api/booked/nope/handover')).status).toBe(400);
    const unknown = await buyer.post(`/api/booked/${crypto.randomUUID()}/handover`);
    expect(unknown.status).toBe(404);
    expect(await codeOf(unknown)).toBe('not-found');
    // A reason is required, and a real one.
    expect((await buyer.post(`/api/booked/${bookingId}/dispute`, {})).status).toBe(400);
    expect((await buyer.post(`/api/booked/${bookingId}/dispute`, { reason: 'bad' })).status).toBe(
      400,
    );
    // Nothing moved.
    expect((await bookingOf(buyer, bookingId)).handover?.state).toBe('awaiting-handover');
  });

  it('never holds or pays out a booking that was not paid', async () => {
    const car = await newCar(app);
    const cancelled = await book(app, car.id);
    expect((await cancelled.post(`/api/booked/${cancelled.bookingId}/cancel`)).status).toBe(200);
    const pending = await book(app, car.id);

    for (const buyer of [cancelled, pending]) {
      const handover = await buyer.post(`/api/booked/${buyer.bookingId}/handover`);
      expect(handover.status).toBe(409);
      expect(await codeOf(handover)).toBe('conflict');
      const dispute = await buyer.post(`/api/booked/${buyer.bookingId}/dispute`, {
        reason: 'I want my money back for this car.',
      });
      expect(dispute.status).toBe(409);
      expect((await bookingOf(buyer, buyer.bookingId)).handover).toBeNull();
    }
    await app.payouts.sweep();
    for (const id of [cancelled.bookingId, pending.bookingId]) {
      const db = app.database.db;
      expect(await db.select().from(settlement).where(eq(settlement.bookingId, id))).toEqual([]);
      expect(await db.select().from(payout).where(eq(payout.bookingId, id))).toEqual([]);
      expect(await ledgerOf(app, id)).toEqual([]);
    }
  });
});

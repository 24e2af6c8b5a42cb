import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispute, DisputePage } from '@carmarket/shared';
import { payment, payout, sandboxIntent, user } from '../../db/schema.ts';
import { codeOf, register, signInAs, type TestClient } from '../../test/client.ts';
import { mailsTo, queuedMailSent, waitForMail } from '../../test/mail.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { bookingOf, newSeller, paidBooking } from '../../test/fixtures.ts';
import { auditOf, ledgerOf, ledgerSum } from './payouts.test-helpers.ts';

const REASON = 'The car has a cracked engine block the seller did not mention.';

describe('disputes: a buyer reports a problem, an admin rules', () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env: { PAYOUT_SWEEP_SECONDS: '3600' } });
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  /** A paid booking of a new seller's car, disputed by its buyer: the booking and its dispute id. */
  async function disputed() {
    const seller = await newSeller(app);
    const paid = await paidBooking(app, { seller });
    const response = await paid.buyer.post(`/api/booked/${paid.bookingId}/dispute`, {
      reason: REASON,
    });
    expect(response.status).toBe(200);
    const booking = (await response.json()) as Awaited<ReturnType<typeof bookingOf>>;
    return { ...paid, seller, booking, disputeId: booking.handover!.disputeId! };
  }

  const resolve = (client: TestClient, id: string, outcome: string, note = 'Checked the photos.') =>
    client.post(`/api/disputes/${id}/resolve`, { outcome, note });

  it('mails every live admin once of a new dispute, with the reason and the link', async () => {
    const { db } = app.database;
    const other = await register(app);
    const gone = await register(app);
    await db
      .update(user)
      .set({ roles: ['admin'] })
      .where(eq(user.email, other.account.email));
    await db
      .update(user)
      .set({ roles: ['admin'], deletedAt: new Date() })
      .where(eq(user.email, gone.account.email));

    const { buyer, seller, car, bookingId } = await disputed();
    // A report repeated is refused as before, and tells nobody anything again.
    expect((await buyer.post(`/api/booked/${bookingId}/dispute`, { reason: REASON })).status).toBe(
      409,
    );
    await queuedMailSent(app);

    const aboutIt = async (email: string) =>
      (await mailsTo(app, email)).filter(
        (mail) => mail.subject.startsWith('Dispute opened') && mail.text.includes(bookingId),
      );
    for (const email of ['admin@demo.local', other.account.email]) {
      const mails = await aboutIt(email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe(`Dispute opened: ${car.name}`);
      expect(mails[0]!.text).toContain(REASON);
      expect(mails[0]!.text).toContain(buyer.account.name);
      expect(mails[0]!.text).toContain('no deadline');
      expect(mails[0]!.text).toContain(`${app.payouts.deps.siteOrigin()}/dashboard/disputes`);
    }
    // Not the deleted admin; the buyer and the seller get only their own mail.
    expect(await aboutIt(gone.account.email)).toEqual([]);
    for (const email of [buyer.account.email, seller.account.email]) {
      expect((await mailsTo(app, email)).map((mail) => mail.subject)).not.toContainEqual(
        expect.stringMatching(/^Dispute opened/),
      );
    }
  });

  it('refunds the card when an admin rules so, and never pays the seller', async () => {
    const { buyer, seller, car, bookingId, transactionId, booking, disputeId } = await disputed();
    expect(booking.handover).toMatchObject({ state: 'disputed', disputeId: expect.any(String) });
    // One report a booking; while it stands the buyer cannot confirm the hand-over.
    const twice = await buyer.post(`/api/booked/${bookingId}/dispute`, { reason: REASON });
    expect(twice.status).toBe(409);
    expect((await buyer.post(`/api/booked/${bookingId}/handover`)).status).toBe(409);
    expect(
      (await waitForMail(app, seller.account.email, /^A problem was reported/)).text,
    ).toContain(REASON);
    await waitForMail(app, buyer.account.email, /^We got your report/);

    const ruled = await resolve(admin, disputeId, 'refund', 'The seller hid the damage.');
    expect(ruled.status).toBe(200);
    const dispute = (await ruled.json()) as Dispute;
    expect(dispute).toMatchObject({
      _id: disputeId,
      bookingId,
      carName: car.name,
      buyerEmail: buyer.account.email,
      sellerName: seller.account.name,
      amount: car.repriceCents,
      reason: REASON,
      status: 'resolved',
      outcome: 'refund',
      note: 'The seller hid the damage.',
    });
    expect(Date.parse(dispute.resolvedAt!)).not.toBeNaN();

    const [intent] = await app.database.db
      .select()
      .from(sandboxIntent)
      .where(eq(sandboxIntent.id, transactionId));
    expect(intent!.refunded).toBe(true);
    const [charge] = await app.database.db
      .select()
      .from(payment)
      .where(eq(payment.providerPaymentId, transactionId));
    expect(charge!.status).toBe('refunded');
    const after = await bookingOf(buyer, bookingId);
    // The sale is undone (decision 044): refunded-gives-car-back.test.ts follows the car.
    expect(after).toMatchObject({
      status: 'refunded',
      handover: { state: 'refunded', releasedAt: null },
    });
    expect(Date.parse(after.handover!.refundedAt!)).not.toBeNaN();

    // The same ruling again answers the same; the other one is refused.
    const again = await resolve(admin, disputeId, 'refund', 'A second look.');
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(dispute);
    const other = await resolve(admin, disputeId, 'release');
    expect(other.status).toBe(409);
    expect(await codeOf(other)).toBe('conflict');

    // Whatever the sweep does after, nothing reaches the seller, even once they can be paid.
    expect((await seller.post('/api/my/payout-account')).status).toBe(200);
    await app.payouts.sweep();
    expect(await (await seller.get('/api/my/balance')).json()).toEqual({
      pending: 0,
      payable: 0,
      paidOut: 0,
      currency: 'USD',
    });
    expect(await ledgerOf(app, bookingId)).toEqual([
      { movement: 'charge', account: 'cash', amountCents: car.repriceCents },
      { movement: 'charge', account: 'escrow', amountCents: -car.repriceCents },
      { movement: 'refund', account: 'cash', amountCents: -car.repriceCents },
      { movement: 'refund', account: 'escrow', amountCents: car.repriceCents },
    ]);
    expect(
      await app.database.db.select().from(payout).where(eq(payout.bookingId, bookingId)),
    ).toEqual([]);
    expect(await auditOf(app, 'dispute.resolved', bookingId)).toMatchObject([
      { details: { outcome: 'refund', note: 'The seller hid the damage.' } },
    ]);
    expect((await waitForMail(app, buyer.account.email, /^Refunded:/)).text).toContain(
      'The seller hid the damage.',
    );
    expect(
      (await waitForMail(app, seller.account.email, /^Payment refunded to the buyer/)).text,
    ).toContain('put it back on sale from My cars');
    expect(await ledgerSum(app)).toBe(0);
  });

  it('releases to the seller when an admin rules so', async () => {
    const { buyer, seller, car, bookingId, disputeId } = await disputed();
    const ruled = await resolve(admin, disputeId, 'release', 'The buyer got the car as shown.');
    expect(ruled.status).toBe(200);
    const dispute = (await ruled.json()) as Dispute;
    expect(dispute).toMatchObject({ status: 'resolved', outcome: 'release' });
    expect((await bookingOf(buyer, bookingId)).handover).toMatchObject({
      state: 'released',
      releasedBy: 'admin',
      refundedAt: null,
    });
    const again = await resolve(admin, disputeId, 'release', 'Again.');
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(dispute);
    expect((await resolve(admin, disputeId, 'refund')).status).toBe(409);

    const fee = Math.ceil((car.repriceCents * 5) / 100);
    expect((await ledgerOf(app, bookingId)).filter((e) => e.movement !== 'charge')).toEqual([
      { movement: 'release', account: 'escrow', amountCents: car.repriceCents },
      { movement: 'release', account: 'fees', amountCents: -fee },
      { movement: 'release', account: 'seller', amountCents: -(car.repriceCents - fee) },
    ]);
    expect(await auditOf(app, 'dispute.resolved', bookingId)).toMatchObject([
      { details: { outcome: 'release' } },
    ]);
    // The seller has no payout account yet: their share waits for them.
    expect(await (await seller.get('/api/my/balance')).json()).toEqual({
      pending: 0,
      payable: car.repriceCents - fee,
      paidOut: 0,
      currency: 'USD',
    });
    expect((await waitForMail(app, seller.account.email, /^Report decided/)).text).toContain(
      'The buyer got the car as shown.',
    );
    await waitForMail(app, buyer.account.email, /^Your report was decided/);
    expect(await ledgerSum(app)).toBe(0);
  });

  it('finishes a refund that a crash left half done, by the sweep or the same ruling again', async () => {
    const [adminRow] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, 'admin@demo.local'));
    // What the first phase commits before the card is refunded: the ruling claimed, by a
    // process that died (time moved, not waited: its claim's lease has run out).
    const claim = (disputeId: string) =>
      app.database.db.execute(
        sql`update dispute set status = 'resolving', outcome = 'refund', note = 'Refund it.',
              resolved_by = ${adminRow!.id}, updated_at = now() - interval '1 hour'
            where id = ${disputeId}`,
      );
    const swept = await disputed();
    const retried = await disputed();
    await claim(swept.disputeId);
    await claim(retried.disputeId);

    const listed = await admin.get('/api/disputes?status=resolving');
    expect(((await listed.json()) as DisputePage).items.map((d) => d._id).sort()).toEqual(
      [swept.disputeId, retried.disputeId].sort(),
    );

    // Admins retrying at once: each is answered the dispute resolved, the card refunded once.
    const rulings = await Promise.all(
      [1, 2, 3].map(() => resolve(admin, retried.disputeId, 'refund', 'Refund it.')),
    );
    for (const ruled of rulings) {
      expect(ruled.status).toBe(200);
      expect(await ruled.json()).toMatchObject({ status: 'resolved', outcome: 'refund' });
    }
    expect((await app.payouts.sweep()).refunded).toBe(1);
    for (const { buyer, bookingId } of [swept, retried]) {
      expect((await bookingOf(buyer, bookingId)).handover?.state).toBe('refunded');
      expect((await auditOf(app, 'dispute.resolved', bookingId))[0]?.actorId).toBe(adminRow!.id);
    }
    expect((await app.payouts.sweep()).refunded).toBe(0);
    expect(await ledgerSum(app)).toBe(0);
  });

  it('refuses a release when the money is no longer in dispute, and writes nothing', async () => {
    const { buyer, seller, bookingId, disputeId } = await disputed();
    // The settlement moved on by some other way while the dispute still stands.
    await app.database.db.execute(
      sql`update settlement set state = 'awaiting-handover' where booking_id = ${bookingId}`,
    );
    const ruled = await resolve(admin, disputeId, 'release', 'Released.');
    expect(ruled.status).toBe(409);
    expect(await codeOf(ruled)).toBe('conflict');
    const open = (await (
      await admin.get('/api/disputes?status=open&limit=48')
    ).json()) as DisputePage;
    expect(open.items.find((d) => d._id === disputeId)).toMatchObject({
      status: 'open',
      outcome: null,
    });
    expect(await auditOf(app, 'dispute.resolved', bookingId)).toEqual([]);
    expect((await ledgerOf(app, bookingId)).map((e) => e.movement)).toEqual(['charge', 'charge']);
    expect((await bookingOf(buyer, bookingId)).handover?.state).toBe('awaiting-handover');
    // Neither side was told of a ruling.
    await queuedMailSent(app);
    for (const email of [buyer.account.email, seller.account.email]) {
      const subjects = (await mailsTo(app, email)).map((mail) => mail.subject);
      expect(subjects.filter((subject) => /decided/.test(subject))).toEqual([]);
    }
  });

  it('lists disputes to admins only, open first, a page at a time', async () => {
    const opened = [await disputed(), await disputed(), await disputed()];
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `/api/disputes?status=open&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await admin.get(query);
      expect(response.status).toBe(200);
      const page = (await response.json()) as DisputePage;
      expect(page.items.length).toBeLessThanOrEqual(2);
      expect(page.items.every((d) => d.status === 'open')).toBe(true);
      seen.push(...page.items.map((d) => d._id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 20);
    // Oldest first, each once.
    const mine = seen.filter((id) => opened.some((o) => o.disputeId === id));
    expect(mine).toEqual(opened.map((o) => o.disputeId));
    expect(new Set(seen).size).toBe(seen.length);

    // Without a status: open ones come before decided ones.
    const all = (await (await admin.get('/api/disputes?limit=48')).json()) as DisputePage;
    const statuses = all.items.map((d) => d.status);
    expect(statuses.lastIndexOf('open')).toBeLessThan(statuses.indexOf('resolved'));

    expect((await admin.get('/api/disputes?cursor=bm9wZQ')).status).toBe(400);
    expect((await admin.get('/api/disputes?status=lost')).status).toBe(400);
  });

  it('counts the disputes of each status on every page, whichever status is asked for', async () => {
    /** Every dispute, page by page, counted by status as the items say. */
    async function countedByListing() {
      const counted: Record<string, number> = { open: 0, resolving: 0, resolved: 0 };
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = (await (
          await admin.get(`/api/disputes?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
        ).json()) as DisputePage;
        for (const item of page.items) counted[item.status]! += 1;
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor && pages < 100);
      return counted;
    }
    const countsOf = async (query: string) =>
      ((await (await admin.get(`/api/disputes${query}`)).json()) as DisputePage).counts;

    const before = await countsOf('');
    const ruled = await disputed();
    await disputed();
    expect(await countsOf('')).toEqual({ ...before, open: before.open + 2 });
    expect((await resolve(admin, ruled.disputeId, 'release')).status).toBe(200);

    const after = { ...before, open: before.open + 1, resolved: before.resolved + 1 };
    for (const query of ['', '?status=open', '?status=resolved&limit=1', '?status=resolving']) {
      expect(await countsOf(query)).toEqual(after);
    }
    expect(await countedByListing()).toEqual(after);
  });

  it('lets only admins see and rule on disputes', async () => {
    const { buyer, seller, disputeId } = await disputed();
    const stranger = await register(app);
    for (const who of [buyer, seller, stranger, await signInAs(app, 'seller@demo.local')]) {
      expect((await who.get('/api/disputes')).status).toBe(403);
      expect((await resolve(who, disputeId, 'refund')).status).toBe(403);
    }
    expect((await resolve(admin, crypto.randomUUID(), 'refund')).status).toBe(404);
    expect((await resolve(admin, 'nope', 'refund')).status).toBe(400);
    expect((await resolve(admin, disputeId, 'keep')).status).toBe(400);
    expect((await resolve(admin, disputeId, 'refund', '')).status).toBe(400);
    // Nothing was decided by any of it.
    const open = (await (
      await admin.get('/api/disputes?status=open&limit=48')
    ).json()) as DisputePage;
    expect(open.items.find((d) => d._id === disputeId)).toMatchObject({ status: 'open' });
  });
});

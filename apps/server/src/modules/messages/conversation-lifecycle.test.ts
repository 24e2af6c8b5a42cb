import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConversationListSchema,
  ConversationReportListSchema,
  ConversationSchema,
} from '@carmarket/shared';
import { auditLog, message, settlement } from '../../db/schema.ts';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { book, payFor, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import {
  talkingEnv,
  freshCar,
  idOf,
  ask,
  send,
  conversationAs,
  allMessages,
} from './messages.test-helpers.ts';

describe('talking to the seller', () => {
  let app: TestApp;
  let seller: TestClient;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env: talkingEnv });
    seller = await signInAs(app, 'seller@demo.local');
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  it('lets the seller block a buyer, who is told plainly and can still read', async () => {
    const buyer = await register(app);
    const first = await ask(buyer, await freshCar(app), 'Is it still for sale?');
    const id = first.conversationId;
    // Only the seller blocks.
    const byBuyer = await buyer.request(`/api/conversations/${id}/block`, { method: 'PUT' });
    expect(byBuyer.status).toBe(403);
    const blocked = await seller.request(`/api/conversations/${id}/block`, { method: 'PUT' });
    expect(blocked.status).toBe(200);
    expect(ConversationSchema.parse(await blocked.json()).closedReason).toBe('blocked');

    const refused = await send(buyer, id, 'Hello?');
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe(
      'The seller has blocked you, so you cannot send them messages.',
    );
    expect((await conversationAs(buyer, id)).closedReason).toBe('blocked');
    expect((await allMessages(buyer, id))[0]!.map((m) => m.body)).toEqual([
      'Is it still for sale?',
    ]);
    // Not about another car of the same seller either, and the seller cannot write meanwhile.
    const elsewhere = await buyer.post(`/api/listings/${await freshCar(app)}/messages`, {
      body: 'What about this one?',
    });
    expect(elsewhere.status).toBe(403);
    expect((await errorOf(elsewhere)).message).toContain('blocked you');
    const fromSeller = await send(seller, id, 'Bye');
    expect(fromSeller.status).toBe(403);
    expect((await errorOf(fromSeller)).message).toBe(
      'You blocked this buyer. Unblock them to write again.',
    );

    const unblocked = await seller.request(`/api/conversations/${id}/block`, { method: 'DELETE' });
    expect(ConversationSchema.parse(await unblocked.json()).closedReason).toBeNull();
    expect((await send(buyer, id, 'Hello again')).status).toBe(200);
  });

  it('keeps a conversation readable but closed once its car is sold, withdrawn or removed', async () => {
    const buyer = await register(app);
    const [sold, withdrawn, removed, reserved] = [
      await freshCar(app),
      await freshCar(app),
      await freshCar(app),
      await freshCar(app),
    ];
    const talks = {
      sold: (await ask(buyer, sold!)).conversationId,
      withdrawn: (await ask(buyer, withdrawn!)).conversationId,
      removed: (await ask(buyer, removed!)).conversationId,
      reserved: (await ask(buyer, reserved!)).conversationId,
    };
    const rival = await register(app);
    const booked = await rival.post('/api/category', validBooking(sold!));
    await payFor(rival, ((await booked.json()) as { insertedId: string }).insertedId);
    expect((await seller.post(`/api/listings/${withdrawn}/withdraw`)).status).toBe(200);
    expect(
      (await admin.post(`/api/listings/${removed}/remove`, { reason: 'Test removal' })).status,
    ).toBe(200);
    // A car held while someone pays is still for sale: its conversation stays open.
    const holding = await rival.post('/api/category', validBooking(reserved!));
    const holdingId = ((await holding.json()) as { insertedId: string }).insertedId;
    await rival.post('/api/create-payment-intent', { bookingId: holdingId });
    expect((await rival.post('/api/payments/hold', { bookingId: holdingId })).status).toBe(200);
    expect((await send(buyer, talks.reserved, 'Is it taken?')).status).toBe(200);

    for (const [reason, id] of [
      ['sold', talks.sold],
      ['withdrawn', talks.withdrawn],
      ['removed', talks.removed],
    ] as const) {
      const refused = await send(buyer, id, 'Still there?');
      expect(refused.status, reason).toBe(409);
      expect((await errorOf(refused)).message).toMatch(/closed to new messages/);
      expect((await send(seller, id, 'Sorry')).status).toBe(409);
      expect((await conversationAs(buyer, id)).closedReason).toBe(reason);
      expect((await buyer.get(`/api/conversations/${id}/messages`)).status).toBe(200);
    }
    // Asking again about the car goes to the same closed conversation.
    expect((await buyer.post(`/api/listings/${withdrawn}/messages`, { body: 'Hi' })).status).toBe(
      409,
    );
    // Someone who never asked about the sold car cannot start now.
    const late = await register(app);
    expect((await late.post(`/api/listings/${sold}/messages`, { body: 'Hi' })).status).toBe(409);
  });

  it('keeps a deleted account\'s messages for the other side under "Deleted user", and closes', async () => {
    const buyer = await register(app, { name: 'Soon Gone' });
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'Before I go');
    await send(seller, id, 'Reply');
    expect(
      (await admin.request(`/api/user/remove/${await idOf(app, buyer)}`, { method: 'DELETE' }))
        .status,
    ).toBe(200);
    const seen = await conversationAs(seller, id);
    expect(seen).toMatchObject({
      otherName: 'Deleted user',
      buyerName: 'Deleted user',
      closedReason: 'account-deleted',
    });
    const [page] = await allMessages(seller, id);
    expect(page!.map((m) => [m.senderName, m.body])).toEqual([
      ['Deleted user', 'Before I go'],
      ['Riverside Motors', 'Reply'],
    ]);
    expect((await send(seller, id, 'Hello?')).status).toBe(409);
    expect((await buyer.get(`/api/conversations/${id}`)).status).toBe(401);
    // The messages themselves are kept.
    const kept = await app.database.db.select().from(message).where(eq(message.conversationId, id));
    expect(kept).toHaveLength(2);
  });

  it('sends reports to the admins only, who may read the conversation while a report is open but never write in it', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(
      buyer,
      await freshCar(app, 'Reported car'),
      'Pay me outside the site',
    );
    expect((await admin.get(`/api/conversations/${id}/messages`)).status).toBe(404);

    const reported = await seller.post(`/api/conversations/${id}/report`, {
      reason: 'Asks to pay outside CarMarket',
    });
    expect(reported.status).toBe(200);
    const again = await seller.post(`/api/conversations/${id}/report`, { reason: 'Again' });
    expect(again.status).toBe(409);
    expect((await seller.post(`/api/conversations/${id}/report`, { reason: '' })).status).toBe(400);

    for (const client of [buyer, seller, await register(app, { role: 'Seller' })]) {
      expect((await client.get('/api/reports')).status).toBe(403);
    }
    expect((await new TestClient(app).get('/api/reports')).status).toBe(401);
    const reports = ConversationReportListSchema.parse(
      await (await admin.get('/api/reports')).json(),
    );
    const report = reports.find((r) => r.conversationId === id);
    expect(report).toMatchObject({
      reason: 'Asks to pay outside CarMarket',
      reporterName: 'Riverside Motors',
      reporterSide: 'seller',
      sellerName: 'Riverside Motors',
      car: { name: 'Reported car' },
      resolvedAt: null,
    });

    // Now the admins may read it, and only read.
    expect(await conversationAs(admin, id)).toMatchObject({
      you: null,
      otherName: null,
      unread: 0,
    });
    const [page] = await allMessages(admin, id);
    expect(page!.map((m) => [m.body, m.mine])).toEqual([['Pay me outside the site', false]]);
    const acting = await send(admin, id, 'Admin here');
    expect(acting.status).toBe(403);
    expect((await errorOf(acting)).message).toBe(
      'Only the two people in a conversation can do this; admins only read it.',
    );
    const reporting = await admin.post(`/api/conversations/${id}/report`, { reason: 'Me too' });
    expect(reporting.status).toBe(403);
    expect((await errorOf(reporting)).message).toBe(
      'Only the two people in a conversation can report it.',
    );
    expect((await admin.post(`/api/conversations/${id}/read`)).status).toBe(403);
    expect((await seller.get(`/api/conversations/${id}`)).status).toBe(200);
    // Reading as an admin marks nothing read for the members.
    expect((await conversationAs(seller, id)).unread).toBe(1);

    const resolved = await admin.post(`/api/reports/${report!._id}/resolve`);
    expect(resolved.status).toBe(200);
    expect(await resolved.json()).toEqual({ acknowledged: true, modifiedCount: 1 });
    // Dealt with: the admins no longer read it (the report stays in their list).
    for (const path of [`/api/conversations/${id}`, `/api/conversations/${id}/messages`]) {
      expect((await admin.get(path)).status, path).toBe(404);
    }
    expect((await send(admin, id, 'Admin here')).status).toBe(404);
    const listed = ConversationReportListSchema.parse(
      await (await admin.get('/api/reports')).json(),
    );
    expect(listed.find((r) => r._id === report!._id)?.resolvedAt).not.toBeNull();
    // Reported again, it is readable again while that report is open.
    expect(
      (await buyer.post(`/api/conversations/${id}/report`, { reason: 'Still at it' })).status,
    ).toBe(200);
    expect((await admin.get(`/api/conversations/${id}/messages`)).status).toBe(200);
    expect((await seller.post(`/api/reports/${report!._id}/resolve`)).status).toBe(403);
    expect((await admin.post(`/api/reports/${randomUUID()}/resolve`)).status).toBe(404);
    const [entry] = await app.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'report.resolve'), eq(auditLog.targetId, id)));
    expect(entry).toBeDefined();
  });

  it('shows a booking of the car as an event line in the conversation about it', async () => {
    const buyer = await register(app, { name: 'Booking Buyer' });
    const car = await freshCar(app);
    const { conversationId: id } = await ask(buyer, car, 'Can I book it?');
    await seller.post(`/api/conversations/${id}/read`);
    const booked = await buyer.post('/api/category', {
      ...validBooking(car),
      userLocation: "At the seller's address",
    });
    expect(booked.status).toBe(200);
    const [page] = await allMessages(seller, id);
    expect(page!.at(-1)).toMatchObject({
      kind: 'booking',
      senderName: 'Booking Buyer',
      mine: false,
    });
    expect(page!.at(-1)!.body).toMatch(
      /^Booked this car for \$[\d,.]+, to meet at: At the seller's address$/,
    );
    expect((await conversationAs(seller, id)).unread).toBe(1);
    // A booking of a car never asked about starts no conversation.
    const quiet = await register(app);
    await quiet.post('/api/category', validBooking(await freshCar(app)));
    const list = ConversationListSchema.parse(await (await quiet.get('/api/conversations')).json());
    expect(list.items).toEqual([]);
  });
  /** Moves a settled sale's release or refund `days` into the past, as if they had gone by. */
  async function settledDaysAgo(bookingId: string, days: number) {
    const when = sql`now() - make_interval(days => ${days})`;
    await app.database.db
      .update(settlement)
      .set({
        releasedAt: sql`case when ${settlement.releasedAt} is null then null else ${when} end`,
        refundedAt: sql`case when ${settlement.refundedAt} is null then null else ${when} end`,
      })
      .where(eq(settlement.bookingId, bookingId));
  }

  it('keeps the buyer who paid talking with the seller until 30 days after the money is released', async () => {
    const car = await freshCar(app);
    const buyer = await book(app, car);
    const { conversationId: id } = await ask(buyer, car, 'Can I pick it up on Friday?');
    const rival = await register(app);
    const { conversationId: rivals } = await ask(rival, car, 'Is it still for sale?');
    await payFor(buyer, buyer.bookingId);

    // After paying, the buyer and the seller arrange the hand-over in their conversation.
    expect((await conversationAs(buyer, id)).closedReason).toBeNull();
    expect((await send(buyer, id, 'Paid. When can I come?')).status).toBe(200);
    expect((await send(seller, id, 'Saturday at ten, keys and papers ready.')).status).toBe(200);
    // Everyone else's conversation about the car closed at the sale.
    expect((await conversationAs(rival, rivals)).closedReason).toBe('sold');
    expect((await send(rival, rivals, 'Any chance?')).status).toBe(409);
    expect((await send(seller, rivals, 'Sorry, sold')).status).toBe(409);

    // The money is released when the buyer confirms the hand-over; they talk on for 30 days.
    expect((await buyer.post(`/api/booked/${buyer.bookingId}/handover`)).status).toBe(200);
    expect((await send(buyer, id, 'Where is the spare key?')).status).toBe(200);
    await settledDaysAgo(buyer.bookingId, 29);
    expect((await send(seller, id, 'In the glovebox.')).status).toBe(200);

    await settledDaysAgo(buyer.bookingId, 31);
    const late = await send(buyer, id, 'One more thing');
    expect(late.status).toBe(409);
    expect((await errorOf(late)).message).toBe(
      'This sale was settled more than 30 days ago; this conversation is closed to new messages.',
    );
    expect((await send(seller, id, 'Hello?')).status).toBe(409);
    expect((await conversationAs(buyer, id)).closedReason).toBe('sale-settled');
    expect((await conversationAs(seller, id)).closedReason).toBe('sale-settled');
    // Asking about the car again leads to the same closed conversation; the thread stays readable.
    expect((await buyer.post(`/api/listings/${car}/messages`, { body: 'Hi' })).status).toBe(409);
    expect((await allMessages(buyer, id))[0]!.map((m) => m.body)).toContain('In the glovebox.');
  });

  it('lets a buyer who paid without asking start the conversation with the seller, and no one else', async () => {
    const car = await freshCar(app);
    const buyer = await book(app, car);
    // Another buyer who booked it too but did not pay, and one who never booked it.
    const unpaid = await book(app, car);
    await payFor(buyer, buyer.bookingId);
    for (const other of [unpaid, await register(app)]) {
      const refused = await other.post(`/api/listings/${car}/messages`, { body: 'Hi' });
      expect(refused.status).toBe(409);
      expect((await errorOf(refused)).message).toMatch(/^This car has been sold/);
    }

    const started = await ask(buyer, car, 'I paid; where do we meet?');
    expect((await conversationAs(buyer, started.conversationId)).closedReason).toBeNull();
    expect((await send(seller, started.conversationId, 'At our yard.')).status).toBe(200);
    const [page] = await allMessages(seller, started.conversationId);
    expect(page!.map((m) => [m.body, m.mine])).toEqual([
      ['I paid; where do we meet?', false],
      ['At our yard.', true],
    ]);
  });

  /** The buyer reports a problem with their paid booking; answers the dispute's id. */
  async function dispute(buyer: TestClient & { bookingId: string }) {
    const reported = await buyer.post(`/api/booked/${buyer.bookingId}/dispute`, {
      reason: 'The car has a different engine from the one described.',
    });
    const { handover } = (await reported.json()) as { handover: { disputeId: string } };
    return handover.disputeId;
  }

  /** An admin refunds the buyer: the car goes back to its seller, withdrawn (decision 044). */
  async function refund(disputeId: string) {
    const ruled = await admin.post(`/api/disputes/${disputeId}/resolve`, {
      outcome: 'refund',
      note: 'Not as described.',
    });
    expect(ruled.status).toBe(200);
  }

  it('keeps a refunded buyer and the seller talking for 30 days after the refund', async () => {
    const car = await freshCar(app);
    const buyer = await book(app, car);
    await payFor(buyer, buyer.bookingId);
    const disputed = await dispute(buyer);
    // Disputed: the money is held, so they talk.
    const { conversationId: id } = await ask(buyer, car, 'This is not the engine you described.');
    await refund(disputed);

    // The car went back to its seller, withdrawn (decision 044); the two still talk.
    expect((await conversationAs(buyer, id)).car.status).toBe('withdrawn');
    expect((await send(seller, id, 'Your refund is on its way.')).status).toBe(200);
    expect((await send(buyer, id, 'Thanks, got it.')).status).toBe(200);
    await settledDaysAgo(buyer.bookingId, 31);
    expect((await send(buyer, id, 'Hello?')).status).toBe(409);
    expect((await conversationAs(seller, id)).closedReason).toBe('sale-settled');
  });

  it("closes a refunded buyer's conversation once the car they gave back is sold to another", async () => {
    const car = await freshCar(app);
    const first = await book(app, car);
    await payFor(first, first.bookingId);
    const disputed = await dispute(first);
    const { conversationId: firsts } = await ask(
      first,
      car,
      'This is not the engine you described.',
    );
    await refund(disputed);

    // Put back on sale: open to everyone, as any car on sale, the refunded buyer too.
    expect((await seller.post(`/api/listings/${car}/relist`)).status).toBe(200);
    expect((await conversationAs(first, firsts)).closedReason).toBeNull();
    expect((await send(seller, firsts, 'It is on sale again, engine fixed.')).status).toBe(200);

    // Another buyer buys it: the sale is theirs, and the refunded buyer's conversation closes
    // with everyone else's, though they were refunded moments ago.
    const second = await book(app, car);
    await payFor(second, second.bookingId);
    expect((await conversationAs(first, firsts)).closedReason).toBe('sold');
    expect((await send(first, firsts, 'Can I still ask?')).status).toBe(409);
    expect((await send(seller, firsts, 'Sorry, sold')).status).toBe(409);
    const { conversationId: seconds } = await ask(second, car, 'Paid. When can I collect it?');
    expect((await conversationAs(second, seconds)).closedReason).toBeNull();

    // Refunded in turn, the car is withdrawn by the second refund: that sale talks on, not the first.
    await refund(await dispute(second));
    expect((await conversationAs(first, firsts)).closedReason).toBe('withdrawn');
    expect((await send(first, firsts, 'Is it back?')).status).toBe(409);
    expect((await first.post(`/api/listings/${car}/messages`, { body: 'Hi' })).status).toBe(409);
    expect((await send(second, seconds, 'Thanks for the refund.')).status).toBe(200);
  });
});

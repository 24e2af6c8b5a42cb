import { randomUUID } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConversationListSchema,
  ConversationReportListSchema,
  ConversationSchema,
  MessagePageSchema,
  SentMessageSchema,
  UnreadCountSchema,
  type Conversation,
  type Message,
} from '@carmarket/shared';
import { queryRows, type Tx } from '../../db/client.ts';
import { auditLog, conversation, listing, message, messageBlock, user } from '../../db/schema.ts';
import { readOutbox } from '../../adapters/mail.ts';
import { confirmAddress, linkIn, waitForMail } from '../../test/mail.ts';
import { codeOf, errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { demoListings, payFor, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

// Workers run only when a test asks (app.runMessageMail), so each test knows what was sent.
const env = { ALERT_INTERVAL_MS: '3600000' };

/** A new car of the demo seller, on sale (a copy of a demo car). */
async function freshCar(app: TestApp, name = 'Test car'): Promise<string> {
  const [first] = await demoListings(app);
  const [row] = await app.database.db.select().from(listing).where(eq(listing.id, first!.id));
  const id = randomUUID();
  await app.database.db
    .insert(listing)
    .values({ ...row!, id, name, status: 'available', advertisedAt: null, createdAt: new Date() });
  return id;
}

async function idOf(app: TestApp, client: TestClient & { account?: { email: string } }) {
  const email = client.account?.email ?? 'seller@demo.local';
  const [row] = await app.database.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, email));
  return row!.id;
}

async function ask(buyer: TestClient, carId: string, body = 'Has the cambelt been done?') {
  const response = await buyer.post(`/api/listings/${carId}/messages`, { body });
  if (response.status !== 200)
    throw new Error(`ask failed: ${response.status} ${await response.text()}`);
  return SentMessageSchema.parse(await response.json());
}

const send = (client: TestClient, id: string, body: string) =>
  client.post(`/api/conversations/${id}/messages`, { body });

async function conversationAs(client: TestClient, id: string): Promise<Conversation> {
  const response = await client.get(`/api/conversations/${id}`);
  expect(response.status).toBe(200);
  return ConversationSchema.parse(await response.json());
}

async function allMessages(client: TestClient, id: string, limit = 30): Promise<Message[][]> {
  const pages: Message[][] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    const response = await client.get(`/api/conversations/${id}/messages?${query}`);
    expect(response.status).toBe(200);
    const page = MessagePageSchema.parse(await response.json());
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

const unreadOf = async (client: TestClient) =>
  UnreadCountSchema.parse(await (await client.get('/api/conversations/unread')).json());

describe('talking to the seller', () => {
  let app: TestApp;
  let seller: TestClient;
  let admin: TestClient;
  beforeAll(async () => {
    // The demo seller writes a lot here, and buyers with unconfirmed addresses ask about several
    // cars; the limits have tests of their own below.
    app = await startTestApp({
      env: {
        ...env,
        MESSAGE_LIMIT_PER_MINUTE: '10000',
        MESSAGE_LIMIT_PER_DAY: '10000',
        UNCONFIRMED_CONVERSATION_LIMIT_PER_DAY: '20',
      },
    });
    seller = await signInAs(app, 'seller@demo.local');
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  it('a buyer asks about a car: one conversation with its seller, which both see with the car', async () => {
    const buyer = await register(app, { name: 'Asking Buyer' });
    const car = await freshCar(app, 'Volvo V70 asked about');
    const first = await ask(buyer, car, 'Has the cambelt been done?');
    expect(first.message).toMatchObject({
      kind: 'text',
      body: 'Has the cambelt been done?',
      senderName: 'Asking Buyer',
      mine: true,
    });
    // The same car again: the same conversation.
    const second = await ask(buyer, car, 'And can I see it on Saturday?');
    expect(second.conversationId).toBe(first.conversationId);

    const mine = ConversationListSchema.parse(await (await buyer.get('/api/conversations')).json());
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0]).toMatchObject({
      _id: first.conversationId,
      car: { _id: car, name: 'Volvo V70 asked about', status: 'available' },
      you: 'buyer',
      otherName: 'Riverside Motors',
      unread: 0,
      closedReason: null,
      lastMessage: { body: 'And can I see it on Saturday?', mine: true },
    });
    expect(mine.items[0]!.car.img).toMatch(/^\/media\//);

    const theirs = ConversationListSchema.parse(
      await (await seller.get('/api/conversations')).json(),
    );
    const seen = theirs.items.find((c) => c._id === first.conversationId);
    expect(seen).toMatchObject({
      you: 'seller',
      otherName: 'Asking Buyer',
      unread: 2,
      lastMessage: { body: 'And can I see it on Saturday?', mine: false },
    });
    // Only that car's conversation, for the car page.
    const forCar = ConversationListSchema.parse(
      await (await buyer.get(`/api/conversations?listingId=${car}`)).json(),
    );
    expect(forCar.items.map((c) => c._id)).toEqual([first.conversationId]);
    const other = ConversationListSchema.parse(
      await (await buyer.get(`/api/conversations?listingId=${await freshCar(app)}`)).json(),
    );
    expect(other.items).toEqual([]);
  });

  it('shows a conversation to its two members only: 404 to everyone else, 401 signed out', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app));
    const otherBuyer = await register(app);
    const otherSeller = await register(app, { role: 'Seller' });
    const deleted = await register(app);
    const removed = await admin.request(`/api/user/remove/${await idOf(app, deleted)}`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(200);
    const calls = [
      (c: TestClient) => c.get(`/api/conversations/${id}`),
      (c: TestClient) => c.get(`/api/conversations/${id}/messages`),
      (c: TestClient) => send(c, id, 'Let me in'),
      (c: TestClient) => c.post(`/api/conversations/${id}/read`),
      (c: TestClient) => c.post(`/api/conversations/${id}/report`, { reason: 'Nosy' }),
      (c: TestClient) => c.request(`/api/conversations/${id}/block`, { method: 'PUT' }),
    ];
    for (const call of calls) {
      expect((await call(otherBuyer)).status).toBe(404);
      expect((await call(otherSeller)).status).toBe(404);
      // Admins read a conversation only once a member reported it.
      expect((await call(admin)).status).toBe(404);
      expect((await call(new TestClient(app))).status).toBe(401);
      expect((await call(deleted)).status).toBe(401);
    }
    // A made-up id answers the same as someone else's.
    expect((await buyer.get(`/api/conversations/${randomUUID()}`)).status).toBe(404);
    expect((await buyer.get('/api/conversations/not-an-id')).status).toBe(400);
    // Their lists do not show it either.
    for (const client of [otherBuyer, otherSeller, admin]) {
      const list = ConversationListSchema.parse(
        await (await client.get('/api/conversations')).json(),
      );
      expect(list.items.map((c) => c._id)).not.toContain(id);
    }
    // Nothing was written by the refused calls.
    const lines = await app.database.db
      .select()
      .from(message)
      .where(eq(message.conversationId, id));
    expect(lines).toHaveLength(1);
  });

  it('lets buyers ask, about cars that are not their own and that they can see', async () => {
    const car = await freshCar(app);
    expect(await codeOf(await seller.post(`/api/listings/${car}/messages`, { body: 'Me?' }))).toBe(
      'forbidden',
    );
    const response = await seller.post(`/api/listings/${car}/messages`, { body: 'Me?' });
    expect((await errorOf(response)).message).toBe('This is your car.');
    const otherSeller = await register(app, { role: 'Seller' });
    const refused = await otherSeller.post(`/api/listings/${car}/messages`, { body: 'Hi' });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe(
      'Only buyer accounts can ask sellers about cars.',
    );
    expect((await admin.post(`/api/listings/${car}/messages`, { body: 'Hi' })).status).toBe(403);

    const buyer = await register(app);
    expect(
      (await buyer.post(`/api/listings/${randomUUID()}/messages`, { body: 'Hi' })).status,
    ).toBe(404);
    // A withdrawn car is not found by someone who never asked about it.
    const withdrawn = await freshCar(app);
    expect((await seller.post(`/api/listings/${withdrawn}/withdraw`)).status).toBe(200);
    expect((await buyer.post(`/api/listings/${withdrawn}/messages`, { body: 'Hi' })).status).toBe(
      404,
    );
  });

  it('takes 1 to 2,000 characters of plain text, stored as written and never as HTML', async () => {
    const buyer = await register(app);
    const car = await freshCar(app);
    const bad = ['', '   \n ', 'x'.repeat(2001), 'a\u0000b', 'bell\u0007', 42, null];
    for (const body of bad) {
      const response = await buyer.post(`/api/listings/${car}/messages`, { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).field).toBe('body');
    }
    expect((await buyer.post(`/api/listings/${car}/messages`, {})).status).toBe(400);
    const longest = await ask(buyer, car, 'y'.repeat(2000));
    expect(longest.message.body).toHaveLength(2000);
    // Line breaks stay; the text is NFC and trimmed; markup is just text.
    const html =
      '  <b>Cheap!</b> <a href="https://example.com">link</a>\n<script>alert(1)</script>  ';
    const sent = await ask(buyer, car, html);
    expect(sent.message.body).toBe(html.trim());
    const accents = await ask(buyer, car, 'Cafe\u0301 au lait');
    expect(accents.message.body).toBe('Café au lait');
    const [page] = await allMessages(buyer, sent.conversationId);
    expect(page!.map((m) => m.body)).toContain(html.trim());
  });

  it('counts what each side has not read, and shows the sender the other has seen it', async () => {
    const buyer = await register(app);
    const before = await unreadOf(seller);
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'One');
    await send(buyer, id, 'Two');
    expect((await conversationAs(seller, id)).unread).toBe(2);
    expect(await unreadOf(seller)).toEqual({
      unread: before.unread + 2,
      conversations: before.conversations + 1,
    });
    expect((await conversationAs(buyer, id)).otherReadUpTo).toBeNull();

    const read = await seller.post(`/api/conversations/${id}/read`);
    expect(read.status).toBe(200);
    expect(ConversationSchema.parse(await read.json()).unread).toBe(0);
    expect(await unreadOf(seller)).toEqual(before);
    const [page] = await allMessages(buyer, id);
    // The buyer's last message is the one the seller read up to: "Seen".
    expect((await conversationAs(buyer, id)).otherReadUpTo).toBe(page!.at(-1)!._id);

    // The seller answers: the buyer has one unread; writing counts as having read.
    const reply = SentMessageSchema.parse(await (await send(seller, id, 'Yes, last year')).json());
    expect((await conversationAs(buyer, id)).unread).toBe(1);
    expect((await conversationAs(seller, id)).unread).toBe(0);
    expect(await unreadOf(buyer)).toEqual({ unread: 1, conversations: 1 });
    // The seller has read up to their own answer; the buyer sees where the seller is.
    expect((await conversationAs(buyer, id)).otherReadUpTo).toBe(reply.message._id);
    expect((await conversationAs(seller, id)).otherReadUpTo).toBe(page!.at(-1)!._id);
    // Reading twice changes nothing.
    await buyer.post(`/api/conversations/${id}/read`);
    await buyer.post(`/api/conversations/${id}/read`);
    expect(await unreadOf(buyer)).toEqual({ unread: 0, conversations: 0 });
  });

  it('pages a thread from the newest page back, oldest first within a page, without repeats or gaps', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'Message 1');
    for (let i = 2; i <= 70; i += 1) {
      const response = await send(i % 2 ? buyer : seller, id, `Message ${i}`);
      expect(response.status).toBe(200);
    }
    const pages = await allMessages(buyer, id, 30);
    expect(pages.map((page) => page.length)).toEqual([30, 30, 10]);
    // The first page is the latest 30, oldest first; then the 30 before them.
    expect(pages[0]!.map((m) => m.body)).toEqual(
      Array.from({ length: 30 }, (_, i) => `Message ${41 + i}`),
    );
    const all = [...pages].reverse().flat();
    expect(all.map((m) => m.body)).toEqual(
      Array.from({ length: 70 }, (_, i) => `Message ${i + 1}`),
    );
    expect(new Set(all.map((m) => m._id)).size).toBe(70);
    expect(all.filter((m) => m.mine).length).toBe(35);
    // A message written while paging does not shift the older pages.
    const first = MessagePageSchema.parse(
      await (await buyer.get(`/api/conversations/${id}/messages?limit=30`)).json(),
    );
    await send(seller, id, 'Message 71');
    const older = MessagePageSchema.parse(
      await (
        await buyer.get(`/api/conversations/${id}/messages?limit=30&cursor=${first.nextCursor}`)
      ).json(),
    );
    expect(older.items.map((m) => m.body)).toEqual(pages[1]!.map((m) => m.body));

    for (const cursor of ['nonsense', 'YS4x', Buffer.from('c.5').toString('base64url'), 'a/b']) {
      const response = await buyer.get(`/api/conversations/${id}/messages?cursor=${cursor}`);
      expect(response.status, cursor).toBe(400);
    }
    for (const limit of ['0', '101', 'x', '2.5']) {
      expect((await buyer.get(`/api/conversations/${id}/messages?limit=${limit}`)).status).toBe(
        400,
      );
    }
  });

  it('lists conversations newest activity first, a page at a time, without repeats', async () => {
    const buyer = await register(app);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1)
      ids.push((await ask(buyer, await freshCar(app, `Car ${i}`))).conversationId);
    // The oldest conversation gets a new message: it comes first now.
    await send(seller, ids[0]!, 'Still interested?');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await buyer.get(
        `/api/conversations?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      const page = ConversationListSchema.parse(await response.json());
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((c) => c._id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([ids[0], ids[4], ids[3], ids[2], ids[1]]);
    expect((await buyer.get('/api/conversations?cursor=bad!')).status).toBe(400);
    const messageCursor = Buffer.from('m.5').toString('base64url');
    expect((await buyer.get(`/api/conversations?cursor=${messageCursor}`)).status).toBe(400);
  });

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
});

describe('sending limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: {
        ...env,
        MESSAGE_LIMIT_PER_MINUTE: '4',
        MESSAGE_LIMIT_PER_DAY: '1000',
        CONVERSATION_LIMIT_PER_DAY: '2',
      },
    });
  });
  afterAll(() => app.close());

  it('answers 429 with Retry-After past the messages a minute, per person', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app));
    for (let i = 0; i < 3; i += 1) expect((await send(buyer, id, `More ${i}`)).status).toBe(200);
    const refused = await send(buyer, id, 'One too many');
    expect(refused.status).toBe(429);
    expect(await codeOf(refused)).toBe('too-many-requests');
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    // The seller is counted on their own.
    const seller = await signInAs(app, 'seller@demo.local');
    expect((await send(seller, id, 'Hello')).status).toBe(200);
    // Refused messages were not stored.
    const lines = await app.database.db
      .select()
      .from(message)
      .where(eq(message.conversationId, id));
    expect(lines).toHaveLength(5);
  });

  it('counts only the messages it accepts: refused ones (blocked, closed, invalid) cost nothing', async () => {
    const buyer = await register(app);
    const seller = await signInAs(app, 'seller@demo.local');
    const car = await freshCar(app);
    const { conversationId: id } = await ask(buyer, car);
    await seller.request(`/api/conversations/${id}/block`, { method: 'PUT' });
    for (let i = 0; i < 4; i += 1) expect((await send(buyer, id, `Blocked ${i}`)).status).toBe(403);
    for (let i = 0; i < 4; i += 1) expect((await send(buyer, id, '')).status).toBe(400);
    await seller.request(`/api/conversations/${id}/block`, { method: 'DELETE' });
    // The minute's four: the first message and three more.
    for (let i = 0; i < 3; i += 1) expect((await send(buyer, id, `Open ${i}`)).status).toBe(200);
    expect((await send(buyer, id, 'Fifth')).status).toBe(429);

    const other = await register(app);
    const sold = await freshCar(app);
    const { conversationId: closed } = await ask(other, sold);
    await app.database.db.update(listing).set({ status: 'sold' }).where(eq(listing.id, sold));
    for (let i = 0; i < 4; i += 1)
      expect((await send(other, closed, `Sold ${i}`)).status).toBe(409);
    await app.database.db.update(listing).set({ status: 'available' }).where(eq(listing.id, sold));
    for (let i = 0; i < 3; i += 1)
      expect((await send(other, closed, `Again ${i}`)).status).toBe(200);
  });

  it('limits the new conversations a buyer starts a day, not the ones they have', async () => {
    const buyer = await register(app);
    const first = await ask(buyer, await freshCar(app));
    await ask(buyer, await freshCar(app));
    const third = await buyer.post(`/api/listings/${await freshCar(app)}/messages`, { body: 'Hi' });
    expect(third.status).toBe(429);
    expect((await errorOf(third)).message).toContain('2 new cars a day');
    expect(third.headers.get('retry-after')).toBeTruthy();
    // The refused one counted against nothing: two more fit in the minute's four.
    expect((await send(buyer, first.conversationId, 'Still fine here')).status).toBe(200);
    expect((await send(buyer, first.conversationId, 'And here')).status).toBe(200);
  });
});

describe('the daily sending limit', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { ...env, MESSAGE_LIMIT_PER_DAY: '3' } });
  });
  afterAll(() => app.close());

  it('answers 429 past the messages a day, until the window ends', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app));
    await send(buyer, id, 'Two');
    await send(buyer, id, 'Three');
    const refused = await send(buyer, id, 'Four');
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).message).toContain('3 messages today');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
  });
});

describe('new conversations of an account whose address is not confirmed', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The default figures: 20 new conversations a day, 3 until the address is confirmed.
    app = await startTestApp({ env });
  });
  afterAll(() => app.close());

  it('starts 3 a day until the address is confirmed, which lifts the limit at once', async () => {
    const buyer = await register(app);
    for (let i = 0; i < 3; i += 1) await ask(buyer, await freshCar(app));
    const car = await freshCar(app);
    const refused = await buyer.post(`/api/listings/${car}/messages`, { body: 'Hi' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    const { message: sentence } = await errorOf(refused);
    expect(sentence).toContain('3 new cars a day until you confirm your email address');
    expect(sentence).toContain('up to 20');

    // The confirmation link every sign-up mails, opened in the buyer's browser.
    const mail = await waitForMail(app, buyer.account.email, /Confirm your CarMarket email/);
    const link = linkIn(mail);
    expect((await buyer.get(link.pathname + link.search)).status).toBe(302);
    await ask(buyer, car);
  });
});

describe('"new message" mail', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env: { ...env, MESSAGE_MAIL_DELAY_MINUTES: '5' } });
    seller = await signInAs(app, 'seller@demo.local');
  });
  afterAll(() => app.close());

  const mailAbout = async (to: string, car: string) =>
    (await readOutbox(app.outboxDir)).filter(
      (mail) => mail.to === to && mail.subject === `New message about ${car}`,
    );
  /** As if everything in the conversation had happened `minutes` earlier. */
  const age = (id: string, minutes: number) =>
    app.database.db.execute(sql`update conversation set
      last_message_at = last_message_at - make_interval(mins => ${minutes}),
      seller_unread_since = seller_unread_since - make_interval(mins => ${minutes}),
      buyer_unread_since = buyer_unread_since - make_interval(mins => ${minutes}),
      seller_mailed_at = seller_mailed_at - make_interval(mins => ${minutes}),
      buyer_mailed_at = buyer_mailed_at - make_interval(mins => ${minutes})
      where id = ${id}`);

  it('mails the other person about a message left unread for minutes, at most once an hour, with a link', async () => {
    const buyer = await register(app, { name: 'Mailing Buyer' });
    const { conversationId: id } = await ask(buyer, await freshCar(app, 'Mailed Mazda'), 'Hello?');
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Mailed Mazda')).toHaveLength(0);

    await age(id, 6);
    await Promise.all([app.runMessageMail(), app.runMessageMail()]);
    const [mail, ...more] = await mailAbout('seller@demo.local', 'Mailed Mazda');
    expect(more).toEqual([]);
    expect(mail!.text).toContain('Mailing Buyer sent you a message about the Mailed Mazda');
    expect(mail!.text).toMatch(new RegExp(`http://[^\\s]+/dashboard/messages/${id}`));
    // The buyer, who wrote it, is owed nothing.
    expect(await mailAbout(buyer.account.email, 'Mailed Mazda')).toHaveLength(0);

    // More messages within the hour: no second mail.
    await send(buyer, id, 'Are you there?');
    await age(id, 30);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Mailed Mazda')).toHaveLength(1);
    // An hour after the first, still unread: one more, counting both.
    await age(id, 31);
    await app.runMessageMail();
    const mails = await mailAbout('seller@demo.local', 'Mailed Mazda');
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain('sent you 2 messages');
    // Nothing new since: no more mail, however long it waits.
    await age(id, 120);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Mailed Mazda')).toHaveLength(2);
  });

  it('gives a message written long after the last mail its own few minutes before mailing it', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app, 'Waiting Wartburg'));
    await age(id, 6);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Waiting Wartburg')).toHaveLength(1);

    // Two hours on, still unread, the buyer writes again: it waits its few minutes too.
    await age(id, 120);
    await send(buyer, id, 'Hello again?');
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Waiting Wartburg')).toHaveLength(1);
    await age(id, 6);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Waiting Wartburg')).toHaveLength(2);
  });

  it('mails nothing about a message read in time, nor about a booking line alone', async () => {
    const buyer = await register(app);
    const car = await freshCar(app, 'Read Renault');
    const { conversationId: id } = await ask(buyer, car, 'Quick question');
    await seller.post(`/api/conversations/${id}/read`);
    await age(id, 10);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Read Renault')).toHaveLength(0);

    await buyer.post('/api/category', validBooking(car));
    await age(id, 10);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Read Renault')).toHaveLength(0);
    expect((await conversationAs(seller, id)).unread).toBe(1);
  });

  it('mails only a confirmed address, and nothing that waited before it was confirmed', async () => {
    const unconfirmed = await register(app);
    const confirmed = await register(app);
    await confirmAddress(app, confirmed);
    const ids = [];
    for (const [buyer, car] of [
      [unconfirmed, 'Unconfirmed Uno'],
      [confirmed, 'Confirmed Corsa'],
    ] as const) {
      const { conversationId: id } = await ask(buyer, await freshCar(app, car));
      await send(seller, id, 'It is still for sale.');
      await age(id, 10);
      ids.push(id);
    }
    await app.runMessageMail();
    expect(await mailAbout(confirmed.account.email, 'Confirmed Corsa')).toHaveLength(1);
    expect(await mailAbout(unconfirmed.account.email, 'Unconfirmed Uno')).toHaveLength(0);

    // Skipped, not kept: confirming sends nothing about the message that waited before.
    await confirmAddress(app, unconfirmed);
    await age(ids[0]!, 10);
    await app.runMessageMail();
    expect(await mailAbout(unconfirmed.account.email, 'Unconfirmed Uno')).toHaveLength(0);
    // The next message is mailed.
    await send(seller, ids[0]!, 'Anyone there?');
    await age(ids[0]!, 10);
    await app.runMessageMail();
    expect(await mailAbout(unconfirmed.account.email, 'Unconfirmed Uno')).toHaveLength(1);
  });

  it('mails no one whose account was deleted', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app, 'Orphan Opel'));
    await send(seller, id, 'Answer');
    const admin = await signInAs(app, 'admin@demo.local');
    await admin.request(`/api/user/remove/${await idOf(app, buyer)}`, { method: 'DELETE' });
    await age(id, 10);
    await app.runMessageMail();
    expect(await mailAbout(buyer.account.email, 'Orphan Opel')).toHaveLength(0);
    const [row] = await app.database.db
      .select({ since: conversation.buyerUnreadSince })
      .from(conversation)
      .where(eq(conversation.id, id));
    expect(row!.since).toBeNull();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  '"new message" mail from two server processes',
  () => {
    let first: TestApp;
    let second: TestApp;
    beforeAll(async () => {
      const mailEnv = { ...env, MESSAGE_MAIL_DELAY_MINUTES: '0', MESSAGE_LIMIT_PER_MINUTE: '1000' };
      first = await startTestApp({ env: mailEnv });
      second = await startTestApp({
        env: mailEnv,
        reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl! },
      });
    });
    afterAll(async () => {
      await second.close();
      await first.close();
    });

    it('mails each waiting conversation once, with both workers running at once', async () => {
      const names: string[] = [];
      for (let i = 0; i < 6; i += 1) {
        const buyer = await register(i % 2 ? first : second);
        const name = `Twice Tested ${i} ${Date.now()}`;
        names.push(name);
        await ask(buyer, await freshCar(first, name), 'Still for sale?');
      }
      await Promise.all([
        first.runMessageMail(),
        second.runMessageMail(),
        first.runMessageMail(),
        second.runMessageMail(),
      ]);
      // Both servers write to the same data directory's outbox.
      const outbox = await readOutbox(first.outboxDir);
      for (const name of names) {
        expect(outbox.filter((mail) => mail.subject === `New message about ${name}`)).toHaveLength(
          1,
        );
      }
    });
  },
);

/**
 * Writes that meet a change committed while they wait for a conversation's row. PostgreSQL only:
 * PGlite runs one transaction at a time, so there nothing ever waits for a lock.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('sending while the conversation changes', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp({
      env: {
        ...env,
        MESSAGE_LIMIT_PER_MINUTE: '3',
        MESSAGE_LIMIT_PER_DAY: '1000',
        CONVERSATION_LIMIT_PER_DAY: '2',
      },
    });
    seller = await signInAs(app, 'seller@demo.local');
  });
  afterAll(() => app.close());

  /** How many statements on this database wait for a lock. */
  const waitingForLocks = async () => {
    const [row] = await queryRows<{ n: number }>(
      app.database.db,
      sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
    );
    return row!.n;
  };

  /** Starts a request, and answers once it waits for a lock (`before` others wait already). */
  async function queued(before: number, request: () => Promise<Response>) {
    const answer = request();
    answer.catch(() => undefined);
    await expect.poll(waitingForLocks, { timeout: 5000 }).toBe(before + 1);
    return { answer };
  }

  /** A conversation's row, as every change to it takes it first. */
  const conversationRow = (id: string) =>
    sql`select 1 from conversation where id = ${id} for update`;

  /**
   * Takes a lock (`lock`, a statement) while `meanwhile` queues requests behind it; then runs
   * `change` in the same transaction and commits.
   */
  async function holding<T>(
    lock: SQL,
    meanwhile: () => Promise<T>,
    change: (tx: Tx) => Promise<void> = async () => {},
  ): Promise<T> {
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = app.database.db.transaction(async (tx) => {
      await tx.execute(lock);
      held();
      await released;
      await change(tx);
    });
    await isHeld;
    try {
      return await meanwhile();
    } finally {
      release();
      await holder;
    }
  }

  const textsOf = async (id: string) =>
    (
      await app.database.db
        .select({ body: message.body })
        .from(message)
        .where(eq(message.conversationId, id))
        .orderBy(message.seq)
    ).map((row) => row.body);

  it('refuses a message that waited for the conversation while the seller blocked the buyer, and counts it against no limit', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'First');
    // The block takes the row first; the message queues behind it, after its own checks passed.
    const { block, sent } = await holding(conversationRow(id), async () => {
      const block = await queued(0, () =>
        seller.request(`/api/conversations/${id}/block`, { method: 'PUT' }),
      );
      const sent = await queued(1, () => send(buyer, id, 'Sent while blocked'));
      return { block: block.answer, sent: sent.answer };
    });
    expect((await block).status).toBe(200);
    const refused = await sent;
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe(
      'The seller has blocked you, so you cannot send them messages.',
    );
    expect(await textsOf(id)).toEqual(['First']);

    // Refused, it counted against nothing: two more fit in the minute's three.
    await seller.request(`/api/conversations/${id}/block`, { method: 'DELETE' });
    expect((await send(buyer, id, 'Second')).status).toBe(200);
    expect((await send(buyer, id, 'Third')).status).toBe(200);
    expect((await send(buyer, id, 'Fourth')).status).toBe(429);
  });

  it('refuses a message that waited for the conversation while its car was sold', async () => {
    const buyer = await register(app);
    const car = await freshCar(app);
    const { conversationId: id } = await ask(buyer, car, 'First');
    // In an object: an async function returning the pending answer itself would wait for it,
    // and so never release the lock the answer waits for.
    const { sent } = await holding(
      conversationRow(id),
      async () => ({
        sent: (await queued(0, () => send(buyer, id, 'Sent after the sale'))).answer,
      }),
      async (tx) => {
        await tx.update(listing).set({ status: 'sold' }).where(eq(listing.id, car));
      },
    );
    expect((await sent).status).toBe(409);
    expect(await textsOf(id)).toEqual(['First']);
  });

  it('refuses a first message about another car while the seller blocks the buyer, and counts it against no limit', async () => {
    const buyer = await register(app);
    const { conversationId: first } = await ask(buyer, await freshCar(app), 'First');
    const other = await freshCar(app);
    // As setBlocked does: the seller's conversations with the buyer, then the block.
    const { asked } = await holding(
      conversationRow(first),
      async () => ({
        asked: (
          await queued(0, () =>
            buyer.post(`/api/listings/${other}/messages`, { body: 'About another car' }),
          )
        ).answer,
      }),
      async (tx) => {
        await tx.insert(messageBlock).values({
          sellerId: await idOf(app, seller),
          buyerId: await idOf(app, buyer),
        });
      },
    );
    expect((await asked).status).toBe(403);
    const mine = ConversationListSchema.parse(await (await buyer.get('/api/conversations')).json());
    expect(mine.items.map((c) => c._id)).toEqual([first]);

    // Refused, it started no conversation and counted against no limit: the second new car of
    // the day's two, and the minute's second and third messages, still fit.
    await seller.request(`/api/conversations/${first}/block`, { method: 'DELETE' });
    const { conversationId: second } = await ask(buyer, other, 'Now it can');
    expect((await send(buyer, second, 'And again')).status).toBe(200);
    expect((await send(buyer, second, 'One too many')).status).toBe(429);
  });

  it("deletes an account while two of the person's contacts write to each other, without a deadlock", async () => {
    const admin = await signInAs(app, 'admin@demo.local');
    const sellerId = await idOf(app, seller);
    // X sells a car and buys one: a contact of the person below, and in a conversation with the
    // demo seller, the person's other contact.
    const x = await register(app);
    const xId = await idOf(app, x);
    const xCar = await freshCar(app);
    await app.database.db.update(listing).set({ sellerId: xId }).where(eq(listing.id, xCar));
    const { conversationId: between } = await ask(x, await freshCar(app), 'From one contact');
    const higher = [sellerId, xId].sort()[1]!;
    // A person whose conversation with the higher contact has the lower id, so that taking
    // counters in conversation order would take the higher one first.
    let person: Awaited<ReturnType<typeof register>>;
    for (;;) {
      person = await register(app);
      const withSeller = (await ask(person, await freshCar(app), 'Hello')).conversationId;
      const withX = (await ask(person, xCar, 'Hello')).conversationId;
      const [toHigher, toLower] = higher === xId ? [withX, withSeller] : [withSeller, withX];
      if (toHigher < toLower) break;
    }
    const personId = await idOf(app, person);

    // The higher contact's counter is held while the deletion, then a message between the two
    // contacts, queue for the counters; then both go ahead.
    const { deletion, reply } = await holding(
      sql`select 1 from conversation_event_counter where user_id = ${higher} for update`,
      async () => {
        const deletion = await queued(0, () =>
          admin.request(`/api/user/remove/${personId}`, { method: 'DELETE' }),
        );
        const reply = await queued(1, () => send(seller, between, 'To the other contact'));
        return { deletion: deletion.answer, reply: reply.answer };
      },
    );
    expect((await deletion).status).toBe(200);
    expect((await reply).status).toBe(200);
    expect(await textsOf(between)).toEqual(['From one contact', 'To the other contact']);
  });

  it('never stores a message of a blocked buyer after the block committed, however the two meet', async () => {
    for (let round = 0; round < 15; round += 1) {
      const buyer = await register(app);
      const { conversationId: id } = await ask(buyer, await freshCar(app), 'First');
      await Promise.all([
        seller.request(`/api/conversations/${id}/block`, { method: 'PUT' }),
        send(buyer, id, 'Racing one'),
        send(buyer, id, 'Racing two'),
      ]);
      // A person's event numbers follow the commits: none of the buyer's messages may come after
      // the block's event.
      const buyerId = await idOf(app, buyer);
      const late = await queryRows<{ body: string }>(
        app.database.db,
        sql`select m.body from conversation_event e join message m on m.id = e.message_id
            where e.user_id = ${buyerId} and m.sender_id = ${buyerId} and e.no > (
              select b.no from conversation_event b
              where b.user_id = ${buyerId} and b.conversation_id = ${id} and b.kind = 'conversation')`,
      );
      expect(late, `round ${round}`).toEqual([]);
    }
  });
});

import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConversationListSchema,
  ConversationSchema,
  MessagePageSchema,
  SentMessageSchema,
} from '@carmarket/shared';
import { message } from '../../db/schema.ts';
import { codeOf, errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import {
  talkingEnv,
  freshCar,
  idOf,
  ask,
  send,
  conversationAs,
  allMessages,
  unreadOf,
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
});

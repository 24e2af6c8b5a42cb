import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConversationSchema,
  DELETED_USER_NAME,
  SentMessageSchema,
  type LiveConversationEvent,
  type LiveMessageEvent,
  type LiveReadEvent,
  type LiveReadyEvent,
} from '@carmarket/shared';
import { listing, user } from '../../db/schema.ts';
import { register, signInAs, TestClient } from '../../test/client.ts';
import { linkIn, waitForMail } from '../../test/mail.ts';
import { demoListings } from '../../test/fixtures.ts';
import { openStream, type SseEvent, type SseStream } from '../../test/sse.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { lockConversation } from './conversation-access.ts';
import { addMessage } from './message-writes.ts';

const env = { ALERT_INTERVAL_MS: '3600000', MESSAGE_LIMIT_PER_MINUTE: '1000' };

async function freshCar(app: TestApp): Promise<string> {
  const [first] = await demoListings(app);
  const [row] = await app.database.db.select().from(listing).where(eq(listing.id, first!.id));
  const id = randomUUID();
  await app.database.db
    .insert(listing)
    .values({ ...row!, id, status: 'available', advertisedAt: null, createdAt: new Date() });
  return id;
}

async function ask(buyer: TestClient, carId: string, body: string) {
  const response = await buyer.post(`/api/listings/${carId}/messages`, { body });
  if (response.status !== 200) throw new Error(`ask failed: ${await response.text()}`);
  return SentMessageSchema.parse(await response.json());
}

async function send(client: TestClient, id: string, body: string) {
  const response = await client.post(`/api/conversations/${id}/messages`, { body });
  if (response.status !== 200) throw new Error(`send failed: ${await response.text()}`);
  return SentMessageSchema.parse(await response.json());
}

const isMessage = (body: string) => (event: SseEvent) =>
  event.event === 'message' && (event.data as LiveMessageEvent).message.body === body;

/** Resolves once the server ended the stream; fails if it is still open after `ms`. */
async function endsWithin(stream: SseStream, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      stream.ended,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the stream is still open after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('the live stream of conversations', () => {
  let app: TestApp;
  let seller: TestClient;
  const streams: SseStream[] = [];
  const open = async (...args: Parameters<typeof openStream>) => {
    const stream = await openStream(...args);
    streams.push(stream);
    return stream;
  };
  beforeAll(async () => {
    app = await startTestApp({ env: { ...env, LIVE_HEARTBEAT_SECONDS: '0.2' } });
    seller = await signInAs(app, 'seller@demo.local');
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await app.close();
  });

  it('is for signed-in people only', async () => {
    const response = await new TestClient(app).get('/api/conversations/stream');
    expect(response.status).toBe(401);
    const bad = await (await register(app)).get('/api/conversations/stream?lastEventId=abc');
    expect(bad.status).toBe(400);
  });

  it("brings each member the conversation's new messages and read receipts, and no one else", async () => {
    const buyer = await register(app, { name: 'Live Buyer' });
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'Is it automatic?');
    const buyerStream = await open(buyer);
    const sellerStream = await open(seller);
    const outsider = await register(app);
    const stranger = await open(outsider);
    expect(buyerStream.status).toBe(200);
    expect(buyerStream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(buyerStream.headers.get('cache-control')).toContain('no-store');
    const ready = await buyerStream.next((e) => e.event === 'ready');
    expect(ready.data as LiveReadyEvent).toEqual({ resumed: false });
    await sellerStream.next((e) => e.event === 'ready');
    await stranger.next((e) => e.event === 'ready');

    await send(seller, id, 'Yes, a six-speed');
    const arrived = await buyerStream.next(isMessage('Yes, a six-speed'));
    expect(arrived.data).toMatchObject({
      conversationId: id,
      message: { senderName: 'Riverside Motors', mine: false, kind: 'text', conversationId: id },
    });
    expect(Number(arrived.id)).toBe(Number(ready.id) + 1);
    // The sender's own tabs hear of it too, as theirs.
    const own = await sellerStream.next(isMessage('Yes, a six-speed'));
    expect((own.data as LiveMessageEvent).message.mine).toBe(true);

    await buyer.post(`/api/conversations/${id}/read`);
    const seen = await sellerStream.next((e) => e.event === 'read');
    expect(seen.data as LiveReadEvent).toEqual({
      conversationId: id,
      reader: 'other',
      upTo: (arrived.data as LiveMessageEvent).message._id,
    });
    const mine = await buyerStream.next((e) => e.event === 'read');
    expect((mine.data as LiveReadEvent).reader).toBe('you');
    // Events come in order: anything meant for the stranger would come before their own
    // message, and nothing did.
    await ask(outsider, await freshCar(app), 'A question of my own');
    await stranger.next(isMessage('A question of my own'));
    expect(stranger.events.map((e) => e.event)).toEqual(['ready', 'message']);
    // Heartbeats keep proxies from closing an idle stream (one every 0.2 s here): wait for one.
    await expect.poll(() => buyerStream.comments).toBeGreaterThan(0);
  });

  it('replays what a reconnecting client missed, from its Last-Event-ID, in order', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'Any rust?');
    const first = await open(buyer);
    await first.next((e) => e.event === 'ready');
    await send(seller, id, 'None');
    await first.next(isMessage('None'));
    const last = first.lastEventId()!;
    const openBefore = app.live.size;
    first.close();
    await first.ended;
    // The server lets go of a stream whose client went.
    await expect.poll(() => app.live.size).toBe(openBefore - 1);

    await send(seller, id, 'Missed one');
    await send(seller, id, 'Missed two');
    const again = await open(buyer, { lastEventId: last });
    const replayed = [await again.next(), await again.next(), await again.next()];
    expect(replayed.map((e) => e.event)).toEqual(['message', 'message', 'ready']);
    expect(replayed.map((e) => (e.data as LiveMessageEvent).message?.body)).toEqual([
      'Missed one',
      'Missed two',
      undefined,
    ]);
    expect(replayed.map((e) => Number(e.id))).toEqual([
      Number(last) + 1,
      Number(last) + 2,
      Number(last) + 2,
    ]);
    expect(replayed[2]!.data).toEqual({ resumed: true });
    // Live again after the replay.
    await send(seller, id, 'Live again');
    expect(Number((await again.next(isMessage('Live again'))).id)).toBe(Number(last) + 3);

    // `?lastEventId=` does the same for clients that cannot set the header.
    const byQuery = await open(buyer, { query: `?lastEventId=${last}` });
    expect((await byQuery.next()).data).toMatchObject({ message: { body: 'Missed one' } });
    // A number it was never given starts from now.
    const unknown = await open(buyer, { lastEventId: '999999999' });
    expect((await unknown.next()).data).toEqual({ resumed: false });
    const garbage = await open(buyer, { lastEventId: 'x-1' });
    expect((await garbage.next()).event).toBe('ready');
  });

  it('fills in an event whose publishing was lost or late, from the database, in order', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'Two owners?');
    const stream = await open(buyer);
    const ready = await stream.next((e) => e.event === 'ready');
    // Stored and numbered, but its publishing lost on the way (Redis restarting, a process
    // stalled between commit and publish): only the database has it.
    const [sellerRow] = await app.database.db
      .select({ id: user.id, name: user.name })
      .from(user)
      .where(eq(user.email, 'seller@demo.local'));
    await app.database.db.transaction(async (tx) => {
      const locked = (await lockConversation(tx, id))!;
      await addMessage(tx, locked, sellerRow!, { kind: 'text', body: 'Never published' });
    });
    // The next event's number shows the gap: the stream reads what it lacks first.
    await send(seller, id, 'Published');
    const filled = await stream.next(isMessage('Never published'));
    const next = await stream.next(isMessage('Published'));
    expect([Number(filled.id), Number(next.id)]).toEqual([
      Number(ready.id) + 1,
      Number(ready.id) + 2,
    ]);
  });

  it('tells a client to load its lists again when what it missed is gone', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'Service history?');
    const first = await open(buyer);
    const ready = await first.next((e) => e.event === 'ready');
    first.close();
    await send(seller, id, 'Full history');
    await send(seller, id, 'And receipts');
    // Pruned as a week-old event would be.
    const [buyerRow] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, buyer.account.email));
    await app.database.db.execute(
      sql`delete from conversation_event where user_id = ${buyerRow!.id} and no = ${Number(ready.id) + 1}`,
    );
    const again = await open(buyer, { lastEventId: ready.id! });
    const reset = await again.next();
    expect(reset.event).toBe('reset');
    expect(Number(reset.id)).toBe(Number(ready.id) + 2);
    expect((await again.next()).data).toEqual({ resumed: true });
  });

  it('tells the buyer live that the seller blocked them', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'Lowest price?');
    const stream = await open(buyer);
    await stream.next((e) => e.event === 'ready');
    await seller.request(`/api/conversations/${id}/block`, { method: 'PUT' });
    expect((await stream.next((e) => e.event === 'conversation')).data).toEqual({
      conversationId: id,
    });
  });

  it("ends a deleted account's streams, and tells the other side the conversation closed", async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'Goodbye soon');
    const buyerStream = await open(buyer);
    await buyerStream.next((e) => e.event === 'ready');
    const sellerStream = await open(seller);
    await sellerStream.next((e) => e.event === 'ready');
    const admin = await signInAs(app, 'admin@demo.local');
    const [row] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, buyer.account.email));
    await admin.request(`/api/user/remove/${row!.id}`, { method: 'DELETE' });
    await Promise.race([
      buyerStream.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('still open')), 3000)),
    ]);
    expect((await sellerStream.next((e) => e.event === 'conversation')).data).toEqual({
      conversationId: id,
    });
  });

  it('ends the streams of a buyer who deletes their own account, and tells the seller the conversation closed', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'Leaving soon');
    const buyerStream = await open(buyer);
    await buyerStream.next((e) => e.event === 'ready');
    const sellerStream = await open(seller);
    await sellerStream.next((e) => e.event === 'ready');

    const deleted = await buyer.post('/api/auth/delete-user', { password: buyer.account.password });
    expect(deleted.status).toBe(200);
    await endsWithin(buyerStream, 3000);
    const told = await sellerStream.next(
      (e) => e.event === 'conversation' && (e.data as LiveConversationEvent).conversationId === id,
    );
    expect(told.data).toEqual({ conversationId: id });
    const seen = ConversationSchema.parse(
      await (await seller.get(`/api/conversations/${id}`)).json(),
    );
    expect(seen).toMatchObject({ closedReason: 'account-deleted', otherName: DELETED_USER_NAME });
  });

  it('keeps at most ten streams a person on one process: the 11th ends the oldest, told not to come straight back', async () => {
    const buyer = await register(app);
    const tabs = [];
    for (let i = 0; i < 11; i += 1) {
      const tab = await open(buyer);
      expect(tab.status).toBe(200);
      await tab.next((e) => e.event === 'ready');
      tabs.push(tab);
    }
    // The oldest is told why (our client then waits until its tab is shown again) and ends.
    expect((await tabs[0]!.next((e) => e.event === 'superseded')).data).toEqual({});
    await endsWithin(tabs[0]!, 1000);
    // The newest is live, and so is the next oldest: the person's own message reaches both, and
    // nothing came to the next oldest before it.
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'Eleven tabs');
    await tabs[10]!.next(isMessage('Eleven tabs'));
    await tabs[1]!.next(isMessage('Eleven tabs'));
    expect(tabs[1]!.events.map((e) => e.event)).toEqual(['ready', 'message']);
    // A twelfth ends the next oldest, and only it.
    const twelfth = await open(buyer);
    await twelfth.next((e) => e.event === 'ready');
    await tabs[1]!.next((e) => e.event === 'superseded');
    await endsWithin(tabs[1]!, 1000);
    await send(buyer, id, 'Twelve tabs');
    await tabs[2]!.next(isMessage('Twelve tabs'));
    expect(tabs[2]!.events.map((e) => e.event)).toEqual(['ready', 'message', 'message']);
  });

  it('lets go of a stream whose client went before it was answered', async () => {
    const buyer = await register(app);
    await expect.poll(() => app.live.size, { timeout: 3000 }).toBe(app.live.size);
    const before = app.live.size;
    // Gone while the server is still checking its session: nothing may stay registered.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const controller = new AbortController();
        const asked = buyer
          .request('/api/conversations/stream', { signal: controller.signal })
          .catch(() => undefined);
        setTimeout(() => controller.abort(), i % 5);
        return asked;
      }),
    );
    await expect.poll(() => app.live.size, { timeout: 3000 }).toBe(before);
  });

  it("ends a person's streams of a revoked session at once, and keeps the others", async () => {
    const buyer = await register(app);
    const other = new TestClient(app);
    const signIn = await other.post('/api/auth/sign-in/email', {
      email: buyer.account.email,
      password: buyer.account.password,
    });
    expect(signIn.status).toBe(200);
    const kept = await open(buyer);
    const revoked = await open(other);
    await kept.next((e) => e.event === 'ready');
    await revoked.next((e) => e.event === 'ready');
    // Revoked from the first device, as the devices list does: the stream ends at once, not at
    // the check a minute.
    expect((await buyer.post('/api/auth/revoke-other-sessions', {})).status).toBe(200);
    await endsWithin(revoked, 2000);
    // The kept stream's next event is the person's next message: nothing came before it.
    await ask(buyer, await freshCar(app), 'Still here');
    await kept.next(isMessage('Still here'));
    expect(kept.events.map((e) => e.event)).toEqual(['ready', 'message']);
  });

  it('ends every stream of a person who resets their password ("this wasn\'t me"), at once', async () => {
    const buyer = await register(app);
    const stream = await open(buyer);
    await stream.next((e) => e.event === 'ready');
    await new TestClient(app).post('/api/auth/request-password-reset', {
      email: buyer.account.email,
      redirectTo: '/reset-password',
    });
    const mail = await waitForMail(app, buyer.account.email, /reset/i);
    const link = linkIn(mail);
    const visit = await new TestClient(app).get(link.pathname + link.search);
    const token = new URL(visit.headers.get('location')!, app.baseUrl).searchParams.get('token')!;
    const reset = await new TestClient(app).post('/api/auth/reset-password', {
      token,
      newPassword: 'a brand new passphrase',
    });
    expect(reset.status).toBe(200);
    await endsWithin(stream, 2000);
  });

  it('ends streams whose session ended (signed out elsewhere)', async () => {
    const buyer = await register(app);
    const stream = await open(buyer);
    await stream.next((e) => e.event === 'ready');
    await buyer.post('/api/auth/sign-out', {});
    await app.live.endSignedOut();
    await Promise.race([
      stream.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error('still open')), 3000)),
    ]);
  });
});

describe('closing the server with streams open', () => {
  it('ends the streams instead of waiting for them', async () => {
    const app = await startTestApp({ env });
    const buyer = await register(app);
    const streams = await Promise.all([openStream(buyer), openStream(buyer), openStream(buyer)]);
    await Promise.all(streams.map((stream) => stream.next((e) => e.event === 'ready')));
    const started = performance.now();
    await app.close();
    expect(performance.now() - started).toBeLessThan(3000);
    await Promise.all(streams.map((stream) => stream.ended));
  });
});

describe('the streams one process holds', () => {
  it('answers 503 with Retry-After past the cap, in our error shape, and opens again once one ends', async () => {
    const app = await startTestApp({ env: { ...env, LIVE_MAX_STREAMS: '2' } });
    try {
      const buyer = await register(app);
      const first = await openStream(buyer);
      const second = await openStream(await register(app));
      await first.next((e) => e.event === 'ready');
      await second.next((e) => e.event === 'ready');
      const refused = await buyer.get('/api/conversations/stream');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.json()).toMatchObject({
        error: {
          code: 'unavailable',
          message: 'Live updates are busy on this server. They resume by themselves in a moment.',
        },
      });
      // A person's own 11th tab is not what fills it: that one ends their oldest instead.
      first.close();
      await expect.poll(() => app.live.size).toBe(1);
      const again = await openStream(buyer);
      expect(again.status).toBe(200);
      await again.next((e) => e.event === 'ready');
      again.close();
      second.close();
    } finally {
      await app.close();
    }
  });

  it('answers 503 with Retry-After past the cap of one address, while other addresses get in', async () => {
    const app = await startTestApp({
      env: { ...env, LIVE_MAX_STREAMS_PER_IP: '2', TRUST_PROXY: 'true' },
    });
    try {
      const firstPerson = await register(app);
      const first = await openStream(firstPerson);
      const second = await openStream(await register(app));
      await first.next((e) => e.event === 'ready');
      await second.next((e) => e.event === 'ready');
      // A third person at the same address: the address has taken its share.
      const third = await register(app);
      const refused = await third.get('/api/conversations/stream');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.json()).toMatchObject({
        error: {
          code: 'unavailable',
          message:
            'Too many live updates are open from your network. They resume by themselves in a moment.',
        },
      });
      // The same person from another address (behind the proxy) is not held by it.
      const elsewhere = await openStream(third, { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(elsewhere.status).toBe(200);
      await elsewhere.next((e) => e.event === 'ready');
      // A stream of the address that ends frees its place. The server ends it (at sign-out): after
      // a stream this client dropped, fetch kept a fresh connection open that close() waited for.
      expect((await firstPerson.post('/api/auth/sign-out')).status).toBe(200);
      await first.ended;
      const again = await openStream(third);
      expect(again.status).toBe(200);
      await again.next((e) => e.event === 'ready');
      expect(app.live.size).toBe(3);
    } finally {
      await app.close();
    }
  });
});

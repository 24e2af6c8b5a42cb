import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SentMessageSchema, type LiveMessageEvent } from '@carmarket/shared';
import { startChildServer, type ChildServer } from '../../test/child-server.ts';
import { register, signInAs, TestClient } from '../../test/client.ts';
import { REDIS_URL, redisAnswers } from '../../test/redis.ts';
import { openStream, type SseEvent } from '../../test/sse.ts';
import { createTestDatabase } from '../../test/test-app.ts';

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const redisUp = postgres && (await redisAnswers(REDIS_URL));

const isMessage = (body: string) => (event: SseEvent) =>
  event.event === 'message' && (event.data as LiveMessageEvent).message.body === body;

// Counted as a failed test, not only a failed file: the suite below would show as skipped.
describe.runIf(postgres)('the PostgreSQL run', () => {
  it('has the Redis the two-process live test needs (CI runs PostgreSQL with Redis)', () => {
    expect(redisUp, `Redis does not answer at ${REDIS_URL}; start it, or set TEST_REDIS_URL`).toBe(
      true,
    );
  });
});

/**
 * Two server processes on one PostgreSQL database and one Redis, as behind a load balancer: a
 * message written through one reaches a stream held by the other, and a stream that reconnects
 * is sent what it missed. PostgreSQL and Redis only (PGlite is one process's database).
 */
describe.skipIf(!postgres)('live conversations across two server processes', () => {
  let a: ChildServer;
  let b: ChildServer;
  beforeAll(async () => {
    // PostgreSQL runs with Redis (as in CI): without it this test would prove nothing, so it fails.
    if (!redisUp) {
      throw new Error(
        `Redis does not answer at ${REDIS_URL}, and the two-process live test needs it whenever TEST_DATABASE_URL is set. Start Redis, or set TEST_REDIS_URL to one that runs.`,
      );
    }
    const databaseUrl = (await createTestDatabase())!;
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      SEED_DEMO_CARS: 'small',
      MESSAGE_LIMIT_PER_MINUTE: '6',
      ALERT_INTERVAL_MS: '3600000',
    };
    // The first migrates and seeds; the second finds it done (the start-up lock).
    a = await startChildServer({ ...env, DATA_DIR: `/tmp/carmarket-live-a-${Date.now()}` });
    b = await startChildServer({ ...env, DATA_DIR: `/tmp/carmarket-live-b-${Date.now()}` });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('delivers within a second a message written through the other process, and replays what a reconnecting stream missed', async () => {
    const buyer = await register(a);
    const seller = await signInAs(b, 'seller@demo.local');
    const cars = (await (await buyer.get('/api/listings?limit=1')).json()) as {
      items: Array<{ _id: string }>;
    };
    const asked = await buyer.post(`/api/listings/${cars.items[0]!._id}/messages`, {
      body: 'Has the cambelt been done?',
    });
    expect(asked.status).toBe(200);
    const { conversationId: id } = SentMessageSchema.parse(await asked.json());

    const stream = await openStream(buyer);
    await stream.next((e) => e.event === 'ready');
    const sentAt = performance.now();
    const reply = await seller.post(`/api/conversations/${id}/messages`, {
      body: 'Yes, at 60,000 miles',
    });
    expect(reply.status).toBe(200);
    const arrived = await stream.next(isMessage('Yes, at 60,000 miles'), 1000);
    expect(arrived.at - sentAt).toBeLessThan(1000);
    expect((arrived.data as LiveMessageEvent).message.mine).toBe(false);

    // The buyer's connection drops; the seller writes twice through the other process.
    const last = stream.lastEventId()!;
    stream.close();
    await stream.ended;
    for (const body of ['Missed one', 'Missed two']) {
      expect((await seller.post(`/api/conversations/${id}/messages`, { body })).status).toBe(200);
    }
    const again = await openStream(buyer, { lastEventId: last });
    const replayed = [await again.next(), await again.next(), await again.next()];
    expect(replayed.map((e) => e.event)).toEqual(['message', 'message', 'ready']);
    expect(replayed.slice(0, 2).map((e) => (e.data as LiveMessageEvent).message.body)).toEqual([
      'Missed one',
      'Missed two',
    ]);
    // And live again, from the other process.
    await seller.post(`/api/conversations/${id}/messages`, { body: 'Still there?' });
    const live = await again.next(isMessage('Still there?'), 1000);
    expect(Number(live.id)).toBe(Number(last) + 3);
    again.close();
  });

  it('shares each person’s sending limit between the processes', async () => {
    const buyer = await register(a);
    const throughB = new TestClient(b);
    // The same session, sent to the other process: the balancer may send any request anywhere.
    const signIn = await throughB.post('/api/auth/sign-in/email', {
      email: buyer.account.email,
      password: buyer.account.password,
    });
    expect(signIn.status).toBe(200);
    const cars = (await (await buyer.get('/api/listings?limit=2')).json()) as {
      items: Array<{ _id: string }>;
    };
    const asked = await buyer.post(`/api/listings/${cars.items[1]!._id}/messages`, { body: '1' });
    const { conversationId: id } = SentMessageSchema.parse(await asked.json());
    const statuses = [];
    for (let i = 2; i <= 7; i += 1) {
      const client = i % 2 ? buyer : throughB;
      statuses.push(
        (await client.post(`/api/conversations/${id}/messages`, { body: `${i}` })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

import { randomInt } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user } from '../../db/schema.ts';
import { rawRequest, type RawResponse } from '../../test/client.ts';
import { REDIS_URL, redisIsUp } from '../../test/redis.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

const redisUp = await redisIsUp();

let made = 0;
/** A sign-up from `ip` (the server is behind a "proxy"), for a new address unless given one. */
function signUp(
  app: TestApp,
  ip: string,
  body: { name?: string; email?: string; password?: string } = {},
): Promise<RawResponse> {
  made += 1;
  return rawRequest(app.baseUrl, 'POST', '/api/auth/sign-up/email', {
    headers: { origin: app.baseUrl, 'x-forwarded-for': ip },
    json: {
      name: 'New Person',
      email: `signup${made}.${Date.now()}@example.com`,
      password: 'correct horse battery',
      ...body,
    },
  });
}

const errorIn = (response: RawResponse) =>
  (JSON.parse(response.text) as { error: { code: string; message: string; field?: string } }).error;

/** An address no other test (or earlier run, on a shared Redis) has used. */
const freshIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

async function accountsNamed(app: TestApp, emails: string[]) {
  return app.database.db.select({ id: user.id }).from(user).where(inArray(user.email, emails));
}

describe('sign-up limits per address', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { TRUST_PROXY: 'true', SIGN_UP_LIMIT_PER_IP: '3', SIGN_UP_LIMIT_PER_IP_PER_DAY: '100' },
    });
  });
  afterAll(() => app.close());

  it('makes no more accounts from one address in an hour than the limit, and says when to retry', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i += 1) expect((await signUp(app, ip)).status).toBe(200);
    const email = `one-too-many.${Date.now()}@example.com`;
    const refused = await signUp(app, ip, { email });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(errorIn(refused)).toMatchObject({
      code: 'too-many-requests',
      message:
        'Too many accounts have been made from your network. Please try again in 60 minutes.',
    });
    expect(await accountsNamed(app, [email])).toEqual([]);
    // Another address is not held up.
    expect((await signUp(app, freshIp())).status).toBe(200);
  });

  it('lets no more parallel sign-ups through than the limit', async () => {
    const ip = freshIp();
    const emails = Array.from({ length: 12 }, (_, i) => `parallel${i}.${Date.now()}@example.com`);
    const answers = await Promise.all(emails.map((email) => signUp(app, ip, { email })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
    expect(await accountsNamed(app, emails)).toHaveLength(3);
  });

  it('counts a sign-up with a taken address, but not one refused for its input', async () => {
    const ip = freshIp();
    for (const body of [
      { email: 'not-an-address' },
      { password: 'short' },
      { name: 'Visit evil.example' },
      { name: '' },
    ]) {
      expect((await signUp(app, ip, body)).status).toBe(400);
    }
    const first = await signUp(app, ip, { email: `taken.${Date.now()}@example.com` });
    expect(first.status).toBe(200);
    const { email } = JSON.parse(first.text).user as { email: string };
    // Each try at a taken address answers as a new sign-up does (decision 044), and counts so.
    expect((await signUp(app, ip, { email })).status).toBe(200);
    expect((await signUp(app, ip, { email })).status).toBe(200);
    expect((await signUp(app, ip)).status).toBe(429);
  });
});

describe('sign-up limit per address and day', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { TRUST_PROXY: 'true', SIGN_UP_LIMIT_PER_IP: '100', SIGN_UP_LIMIT_PER_IP_PER_DAY: '2' },
    });
  });
  afterAll(() => app.close());

  it('holds an address for the rest of the day once its day is spent', async () => {
    const ip = freshIp();
    for (let i = 0; i < 2; i += 1) expect((await signUp(app, ip)).status).toBe(200);
    const refused = await signUp(app, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(errorIn(refused).message).toBe(
      'Too many accounts have been made from your network. Please try again in 24 hours.',
    );
  });
});

describe('sign-up limits shared through Redis', () => {
  it.skipIf(!redisUp)('counts sign-ups across two server processes', async () => {
    const env = {
      REDIS_URL,
      TRUST_PROXY: 'true',
      SIGN_UP_LIMIT_PER_IP: '2',
      SIGN_UP_LIMIT_PER_IP_PER_DAY: '100',
    };
    const first = await startTestApp({ env });
    const second = await startTestApp({ env });
    try {
      const ip = freshIp();
      expect((await signUp(first, ip)).status).toBe(200);
      expect((await signUp(second, ip)).status).toBe(200);
      expect((await signUp(first, ip)).status).toBe(429);
      expect((await signUp(second, ip)).status).toBe(429);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

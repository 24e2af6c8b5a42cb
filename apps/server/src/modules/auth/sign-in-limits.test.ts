import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user, verification } from '../../db/schema.ts';
import { mailsTo } from '../../test/mail.ts';
import { errorOf, rawRequest, register, TestClient } from '../../test/client.ts';
import { REDIS_URL, redisIsUp } from '../../test/redis.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

const redisUp = await redisIsUp();

/** The ways a path can be written so that it reaches the same better-auth endpoint. */
const DOTTED = (endpoint: string) => [
  `/api/auth/./${endpoint}`,
  `/api/auth/${endpoint.replace('/', '/./')}`,
  `/api/auth/x/../${endpoint}`,
  `/api/auth/%2e/${endpoint}`,
  `/api/auth/%2E/${endpoint}`,
  `/api/auth//${endpoint}`,
  `/api/auth/${endpoint}/`,
];

describe('sign-in limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      // Behind a proxy, so each test can come from its own address.
      env: {
        SIGN_IN_LIMIT_PER_ACCOUNT: '3',
        SIGN_IN_LIMIT_PER_IP: '8',
        SIGN_IN_LIMIT_ACCOUNT_TOTAL: '6',
        TRUST_PROXY: 'true',
      },
    });
  });
  afterAll(() => app.close());

  let lastIp = 0;
  const newIp = () => `203.0.113.${(lastIp += 1)}`;
  const signIn = (
    email: string,
    password: string,
    ip: string,
    pathname = '/api/auth/sign-in/email',
    cookie?: string,
  ) =>
    rawRequest(app.baseUrl, 'POST', pathname, {
      headers: { origin: app.baseUrl, 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
      json: { email, password },
    });
  /** Fills an address's failure limit with wrong guesses at accounts nobody has. */
  const tripAddress = async (ip: string) => {
    for (let i = 0; i < 8; i += 1) {
      expect(
        (await signIn(`typo${i}.${Date.now()}@example.com`, 'wrong password', ip)).status,
      ).toBe(401);
    }
  };

  it('stops guesses from one address after the limit and says when to retry', async () => {
    const person = await register(app);
    const ip = newIp();
    for (let i = 0; i < 3; i += 1) {
      expect((await signIn(person.account.email, 'wrong password', ip)).status).toBe(401);
    }
    const blocked = await signIn(person.account.email, person.account.password, ip);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const error = JSON.parse(blocked.text).error;
    expect(error.code).toBe('too-many-requests');
    expect(error.message).toMatch(/try again in \d+ minutes?/);
    // The other ways in are counted apart, and the message says so.
    expect(error.message).toMatch(/sign in with a link we email you, or reset your password/);
    for (const pathname of ['/api/auth/sign-in/magic-link', '/api/auth/request-password-reset']) {
      const other = await rawRequest(app.baseUrl, 'POST', pathname, {
        headers: { origin: app.baseUrl, 'x-forwarded-for': ip },
        json: { email: person.account.email },
      });
      expect(other.status, pathname).toBe(200);
    }
  });

  it('lets the owner in from their own address while another address guesses', async () => {
    const person = await register(app);
    const attacker = newIp();
    for (let i = 0; i < 3; i += 1) await signIn(person.account.email, 'wrong password', attacker);
    expect((await signIn(person.account.email, 'wrong password', attacker)).status).toBe(429);
    expect((await signIn(person.account.email, person.account.password, newIp())).status).toBe(200);
  });

  it('lets no more parallel wrong guesses through than the limit', async () => {
    const person = await register(app);
    const ip = newIp();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => signIn(person.account.email, 'wrong password', ip)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(22);
  });

  it('limits failures per address across accounts', async () => {
    const ip = newIp();
    const statuses: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      statuses.push((await signIn(`spray${i}@example.com`, 'guessing away', ip)).status);
    }
    expect(statuses).toEqual([...Array<number>(8).fill(401), 429]);
  });

  it('never counts successful sign-ins against a shared office address', async () => {
    const person = await register(app);
    const office = newIp();
    for (let i = 0; i < 12; i += 1) {
      expect((await signIn(person.account.email, person.account.password, office)).status).toBe(
        200,
      );
    }
  });

  it('lets a right password in from a browser that signed in before, while its address is over its limit (rough edge 6)', async () => {
    // Signing up signs the person in: their browser now carries a mark of the account.
    const person = await register(app);
    const { email, password } = person.account;
    const office = newIp();
    await tripAddress(office);

    const stranger = await signIn(email, password, office);
    expect(stranger.status).toBe(429);
    const own = await signIn(email, password, office, undefined, person.cookieHeader());
    expect(own.status).toBe(200);
    // A mark of another account does not open this one.
    const other = await register(app);
    expect((await signIn(email, password, office, undefined, other.cookieHeader())).status).toBe(
      429,
    );
  });

  it("holds a known browser to the account's own limits when the account is under attack (rough edge 6)", async () => {
    const person = await register(app);
    const { email, password } = person.account;
    // Three wrong guesses from the person's own address: that address is spent for the account.
    const home = newIp();
    for (let i = 0; i < 3; i += 1) await signIn(email, 'wrong password', home);
    expect((await signIn(email, password, home, undefined, person.cookieHeader())).status).toBe(
      429,
    );
    // Another three from elsewhere reach the account-wide limit (6 here): no address gets in.
    const elsewhere = newIp();
    for (let i = 0; i < 3; i += 1) await signIn(email, 'wrong password', elsewhere);
    const anywhere = await signIn(email, password, newIp(), undefined, person.cookieHeader());
    expect(anywhere.status).toBe(429);
  });

  it('applies the same limits to every way of writing the sign-in path', async () => {
    const person = await register(app);
    const ip = newIp();
    for (let i = 0; i < 3; i += 1) await signIn(person.account.email, 'wrong password', ip);
    for (const pathname of DOTTED('sign-in/email')) {
      const guesses = [];
      for (let i = 0; i < 3; i += 1) {
        guesses.push((await signIn(person.account.email, 'wrong password', ip, pathname)).status);
      }
      expect(guesses, pathname).not.toContain(401);
      const right = await signIn(person.account.email, person.account.password, ip, pathname);
      expect(right.status, pathname).not.toBe(200);
    }
  });

  it('applies the sign-up rules to every way of writing the sign-up path', async () => {
    for (const [index, pathname] of DOTTED('sign-up/email').entries()) {
      const email = `dotted${index}.${Date.now()}@example.com`;
      const weak = await rawRequest(app.baseUrl, 'POST', pathname, {
        headers: { origin: app.baseUrl },
        json: { name: 'Dot', email, password: 'password' },
      });
      expect(weak.status, pathname).toBe(400);
      const huge = await rawRequest(app.baseUrl, 'POST', pathname, {
        headers: { origin: app.baseUrl },
        json: { name: 'x'.repeat(100_000), email, password: 'correct horse battery' },
      });
      expect(huge.status, pathname).toBe(400);
      const rows = await app.database.db.select().from(user).where(eq(user.email, email));
      expect(rows, pathname).toHaveLength(0);
    }
  });

  it('applies the reset-mail limit to every way of writing the reset path', async () => {
    const person = await register(app);
    const ip = newIp();
    for (const pathname of [
      '/api/auth/request-password-reset',
      ...DOTTED('request-password-reset'),
    ]) {
      await rawRequest(app.baseUrl, 'POST', pathname, {
        headers: { origin: app.baseUrl, 'x-forwarded-for': ip },
        json: { email: person.account.email, redirectTo: '/reset-password' },
      });
    }
    // A request that gets through stores its link before the answer, and mails it after: every
    // request has been answered, so the links are all there to count.
    const [me] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, person.account.email));
    const links = await app.database.db
      .select({ id: verification.id })
      .from(verification)
      .where(
        and(like(verification.identifier, 'reset-password:%'), eq(verification.value, me!.id)),
      );
    expect(links.length).toBeGreaterThan(0);
    expect(links.length).toBeLessThanOrEqual(3);
    // And each link went out as one mail.
    await expect
      .poll(
        async () =>
          (await mailsTo(app, person.account.email)).filter((m) => /reset/i.test(m.subject)),
        { timeout: 5000 },
      )
      .toHaveLength(links.length);
  });

  it('holds every name written through the auth calls to the name rules', async () => {
    const person = await register(app);
    const long = await person.post('/api/auth/update-user', { name: 'x'.repeat(5000) });
    expect(long.status).toBe(400);
    expect((await errorOf(long)).field).toBe('name');
    const empty = await person.post('/api/auth/update-user', { name: null });
    expect(empty.status).toBe(400);
    const [row] = await app.database.db
      .select({ name: user.name })
      .from(user)
      .where(eq(user.email, person.account.email));
    expect(row?.name).toBe(person.account.name);
    expect((await person.post('/api/auth/update-user', { name: 'New Name' })).status).toBe(200);
  });
});

describe('rate limits shared through Redis', () => {
  it.skipIf(!redisUp)('counts failures across two server processes', async () => {
    const env = { REDIS_URL, SIGN_IN_LIMIT_PER_ACCOUNT: '2' };
    const first = await startTestApp({ env });
    const second = await startTestApp({ env });
    try {
      const email = `shared-${Date.now()}@example.com`;
      const fail = (app: TestApp) =>
        new TestClient(app).post('/api/auth/sign-in/email', { email, password: 'wrong password' });
      expect((await fail(first)).status).toBe(401);
      expect((await fail(second)).status).toBe(401);
      expect((await fail(first)).status).toBe(429);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('answers 503, and readiness 503, while Redis does not answer', async () => {
    // Nothing listens on port 1: Redis is "down" for this server.
    const app = await startTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const response = await new TestClient(app).post('/api/auth/sign-in/email', {
        email: 'buyer@demo.local',
        password: 'demo-drive-2026',
      });
      expect(response.status).toBe(503);
      expect((await errorOf(response)).code).toBe('unavailable');
      const ready = await app.request('/api/ready');
      expect(ready.status).toBe(503);
    } finally {
      await app.close();
    }
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, user } from '../../db/schema.ts';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { linkIn, mailsTo, waitForMail } from '../../test/mail.ts';
import { REDIS_URL, redisIsUp } from '../../test/redis.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

const redisUp = await redisIsUp();

/** The calls that send mail to an address anyone may name, with a body for `email`. */
const MAIL_CALLS: Array<[path: string, body: (email: string) => object]> = [
  ['/api/auth/sign-in/magic-link', (email) => ({ email, callbackURL: '/dashboard' })],
  ['/api/auth/request-password-reset', (email) => ({ email, redirectTo: '/reset-password' })],
  ['/api/auth/send-verification-email', (email) => ({ email })],
];

/** A client whose requests come from an address of their own (the server trusts the proxy). */
function fromAddress(app: TestApp, ip: string) {
  const client = new TestClient(app);
  const request = client.request.bind(client);
  client.request = (pathname, init) => {
    const headers = new Headers(init?.headers);
    headers.set('x-forwarded-for', ip);
    return request(pathname, { ...init, headers });
  };
  return client;
}

let ipCounter = 0;
const newIp = () => `10.1.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

describe('signing in with a link mailed to you', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => app.close());

  it('mails a link that signs you in once and lands on the page you asked for', async () => {
    const person = await register(app);
    const browser = new TestClient(app);
    const asked = await browser.post('/api/auth/sign-in/magic-link', {
      email: person.account.email.toUpperCase(),
      callbackURL: '/dashboard/orders',
    });
    expect(asked.status).toBe(200);
    expect(browser.hasSession()).toBe(false);

    const mail = await waitForMail(app, person.account.email, /sign-in link/);
    const link = linkIn(mail);
    expect(link.origin).toBe(`http://localhost:${new URL(app.baseUrl).port}`);
    const visit = await browser.get(link.pathname + link.search);
    expect(visit.status).toBe(302);
    expect(new URL(visit.headers.get('location')!, app.baseUrl).pathname).toBe('/dashboard/orders');
    expect(browser.hasSession()).toBe(true);
    expect((await browser.get(`/api/user/buyer/${person.account.email}`)).status).toBe(200);

    // Once only: another browser with the same link lands on the error page, signed out.
    const thief = new TestClient(app);
    const again = await thief.get(link.pathname + link.search);
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toMatch(/error=INVALID_TOKEN/);
    expect(thief.hasSession()).toBe(false);
  });

  it('sends an error back to the page named for it', async () => {
    const browser = new TestClient(app);
    const visit = await browser.get(
      '/api/auth/magic-link/verify?token=made-up&callbackURL=%2Fdashboard&errorCallbackURL=%2Flogin%3Fnext%3D%252Fdashboard',
    );
    expect(visit.status).toBe(302);
    const location = new URL(visit.headers.get('location')!, app.baseUrl);
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('error')).toBe('INVALID_TOKEN');
    expect(location.searchParams.get('next')).toBe('/dashboard');
  });

  it('refuses to come back to another site', async () => {
    const response = await new TestClient(app).post('/api/auth/sign-in/magic-link', {
      email: 'someone@example.com',
      callbackURL: 'https://evil.example/',
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).field).toBe('callbackURL');
  });

  it('never lands on another site through a path a browser reads as one (\\ for /, dot segments)', async () => {
    // `/.\/evil.example` resolves to `//evil.example`, which a browser reads as another site.
    for (const sneaky of [
      '/.\\/evil.example',
      '/./\\evil.example',
      '/.//evil.example',
      '/%2e//evil.example',
      '/\\evil.example',
    ]) {
      const asked = await new TestClient(app).post('/api/auth/sign-in/magic-link', {
        email: 'someone@example.com',
        callbackURL: sneaky,
      });
      expect(asked.status, sneaky).toBe(400);
      const google = await new TestClient(app).post('/api/auth/sign-in/social', {
        provider: 'google',
        callbackURL: '/dashboard',
        errorCallbackURL: sneaky,
      });
      expect(google.status, sneaky).toBe(400);
      const landing = encodeURIComponent(sneaky);
      for (const path of [
        `/api/auth/magic-link/verify?token=made-up&callbackURL=%2F&errorCallbackURL=${landing}`,
        `/api/auth/verify-email?token=made-up&callbackURL=${landing}`,
      ]) {
        const visit = await new TestClient(app).get(path);
        expect(visit.status, path).toBe(400);
        expect(visit.headers.get('location'), path).toBeNull();
      }
    }
  });

  it('answers 404 to better-auth calls the site does not use, such as /verify-password', async () => {
    const person = await register(app);
    const oracle = await person.post('/api/auth/verify-password', { password: 'a guess' });
    expect(oracle.status).toBe(404);
    // A real better-auth call the site does not use (linking another provider).
    const linking = await person.post('/api/auth/link-social', { provider: 'google' });
    expect(linking.status).toBe(404);
    expect((await errorOf(linking)).code).toBe('not-found');
    // The calls the site uses still work.
    expect((await person.get('/api/auth/get-session')).status).toBe(200);
  });

  it('answers the same for an unknown or deleted address, and mails it nothing', async () => {
    const known = await register(app);
    const deleted = await register(app);
    expect(
      (await deleted.post('/api/auth/delete-user', { password: deleted.account.password })).status,
    ).toBe(200);
    const answers = [];
    // The known address asks last: its mail is sent after any the others would have caused.
    for (const email of ['nobody-at-all@example.com', deleted.account.email, known.account.email]) {
      const response = await new TestClient(app).post('/api/auth/sign-in/magic-link', { email });
      answers.push({ status: response.status, body: await response.text() });
    }
    expect(answers[0]).toEqual(answers[2]);
    expect(answers[1]).toEqual(answers[2]);
    await waitForMail(app, known.account.email, /sign-in link/);
    expect(await mailsTo(app, 'nobody-at-all@example.com')).toEqual([]);
    expect(
      (await mailsTo(app, deleted.account.email)).filter((m) => /sign-in/.test(m.subject)),
    ).toEqual([]);
  });

  it('does not make accounts: registering asks for more than an address', async () => {
    const answer = await new TestClient(app).post('/api/auth/sign-in/magic-link', {
      email: 'brand-new@example.com',
    });
    expect(answer.status).toBe(200);
    const rows = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, 'brand-new@example.com'));
    expect(rows).toEqual([]);
  });
});

describe('mail limits: every call that sends mail, per address and per IP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { TRUST_PROXY: 'true', SIGN_IN_LIMIT_PER_ACCOUNT: '3', SIGN_IN_LIMIT_PER_IP: '6' },
    });
  });
  afterAll(() => app.close());

  it.each(MAIL_CALLS)(
    '%s: the fourth mail to one address in the window answers 429 with Retry-After, known or not',
    async (path, body) => {
      const known = await register(app);
      for (const email of [known.account.email, `unknown-${Date.now()}@example.com`]) {
        const answers: number[] = [];
        let last: Response | undefined;
        for (let i = 0; i < 4; i += 1) {
          // A new IP each time: the address's own limit is what answers.
          last = await fromAddress(app, newIp()).post(path, body(email));
          answers.push(last.status);
        }
        expect(answers, `${path} ${email}`).toEqual([200, 200, 200, 429]);
        expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await errorOf(last!)).toMatchObject({ code: 'too-many-requests' });
      }
    },
  );

  it('shares one limit per address across the kinds of mail', async () => {
    const known = await register(app);
    const statuses = [];
    for (const [path, body] of [...MAIL_CALLS, MAIL_CALLS[0]!]) {
      statuses.push((await fromAddress(app, newIp()).post(path, body(known.account.email))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('limits one IP across many addresses, with the same answer for each', async () => {
    const ip = newIp();
    const statuses = [];
    for (let i = 0; i < 7; i += 1) {
      const [path, body] = MAIL_CALLS[i % MAIL_CALLS.length]!;
      statuses.push((await fromAddress(app, ip).post(path, body(`spray-${i}@example.com`))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });

  it('counts a change of address against both addresses and the IP', async () => {
    const person = await register(app);
    const target = `target-${Date.now()}@example.com`;
    // The target address has had mail already (from a stranger asking for a link to it).
    for (let i = 0; i < 3; i += 1) {
      await fromAddress(app, newIp()).post('/api/auth/sign-in/magic-link', { email: target });
    }
    const limited = await person.post('/api/auth/change-email', {
      newEmail: target,
      currentPassword: person.account.password,
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });

  it('limits the link that stands in for a password when deleting an account', async () => {
    const person = await register(app);
    // Such accounts sign in with Google only: no password row (made so here, as Google would).
    const [row] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, person.account.email));
    await app.database.db.delete(account).where(eq(account.userId, row!.id));
    const statuses = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await person.post('/api/auth/delete-user', {})).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('still signs in with a password while the mail limit of an address is spent', async () => {
    const person = await register(app);
    const askForLink = async () =>
      (
        await fromAddress(app, newIp()).post('/api/auth/sign-in/magic-link', {
          email: person.account.email,
        })
      ).status;
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push(await askForLink());
    expect(statuses).toEqual([200, 200, 200, 429]);
    await signInAs(app, person.account.email, person.account.password);
    // Signing in did not give the address its mail back: the limit is still spent.
    expect(await askForLink()).toBe(429);
  });
});

describe('mail limits shared through Redis', () => {
  it.skipIf(!redisUp)('counts the mail to one address across two server processes', async () => {
    // Runs on one Redis add up per IP within the window: only the address's limit is tested.
    const env = { REDIS_URL, SIGN_IN_LIMIT_PER_ACCOUNT: '2', SIGN_IN_LIMIT_PER_IP: '100000' };
    const first = await startTestApp({ env });
    const second = await startTestApp({ env });
    try {
      const email = `shared-mail-${Date.now()}@example.com`;
      const ask = (app: TestApp) =>
        new TestClient(app).post('/api/auth/sign-in/magic-link', { email });
      expect((await ask(first)).status).toBe(200);
      expect((await ask(second)).status).toBe(200);
      const limited = await ask(first);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).not.toBeNull();
    } finally {
      await first.close();
      await second.close();
    }
  });
});

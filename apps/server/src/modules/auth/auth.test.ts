import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session, user } from '../../db/schema.ts';
import { readOutbox } from '../../adapters/mail.ts';
import { mailsTo, waitForMail } from '../../test/mail.ts';
import { errorOf, rawRequest, register, signInAs, TestClient } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe('email and password accounts', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('signs a new person up with an HttpOnly, SameSite=Lax session cookie', async () => {
    const client = new TestClient(app);
    const response = await client.post('/api/auth/sign-up/email', {
      name: 'Dana Seller',
      email: 'dana@example.com',
      password: 'a long and fine password',
    });
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().find((c) => c.includes('session_token'));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const role = await client.post('/api/user', {
      name: 'Dana Seller',
      email: 'dana@example.com',
      role: 'Seller',
    });
    expect(await role.json()).toEqual({ acknowledged: true });
    const session = (await (await client.get('/api/auth/get-session')).json()) as {
      user: { email: string; roles: string[]; verified: boolean };
    };
    expect(session.user).toMatchObject({
      email: 'dana@example.com',
      roles: ['Seller'],
      verified: false,
    });
  });

  it('answers a sign-up with a taken address as a new one, and mails the address instead (decision 044)', async () => {
    const first = await register(app);
    const signUp = (email: string) =>
      new TestClient(app).post('/api/auth/sign-up/email', {
        name: 'Copy Cat',
        email,
        password: 'another fine password',
      });
    const fresh = `fresh.${Date.now()}@example.com`;
    const [taken, created] = [
      await signUp(first.account.email.toUpperCase()),
      await signUp(fresh.toUpperCase()),
    ];
    // Alike: the status, the headers (but the new account's session cookie), the body's shape.
    expect(taken.status).toBe(200);
    expect(created.status).toBe(200);
    const headerNames = (response: Response) =>
      [...response.headers.keys()].filter(
        (name) => !['set-cookie', 'date', 'x-request-id', 'content-length'].includes(name),
      );
    expect(headerNames(taken)).toEqual(headerNames(created));
    expect(taken.headers.get('cache-control')).toBe(created.headers.get('cache-control'));
    const shape = (value: unknown): unknown =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]))
        : Array.isArray(value)
          ? 'array'
          : typeof value;
    type SignedUp = { user: Record<string, unknown> };
    const takenBody = (await taken.json()) as SignedUp;
    const createdBody = (await created.json()) as SignedUp;
    expect(shape(takenBody)).toEqual(shape(createdBody));
    expect(Object.keys(takenBody.user)).toEqual(Object.keys(createdBody.user));
    expect(takenBody.user).toMatchObject({ name: 'Copy Cat', email: first.account.email });
    expect(createdBody.user).toMatchObject({ name: 'Copy Cat', email: fresh });

    // The address's owner is told; no second account was made, and theirs is as it was.
    const told = await waitForMail(app, first.account.email, /^Someone tried to sign up/);
    expect(told.text).toContain('No new account was made');
    expect(told.text).toMatch(/\/login\n/);
    const owners = await app.database.db
      .select({ name: user.name })
      .from(user)
      .where(eq(user.email, first.account.email));
    expect(owners).toEqual([{ name: first.account.name }]);
    const signedIn = await new TestClient(app).post('/api/auth/sign-in/email', {
      email: first.account.email,
      password: first.account.password,
    });
    expect(signedIn.status).toBe(200);
    expect((await mailsTo(app, fresh)).some((mail) => /tried to sign up/.test(mail.subject))).toBe(
      false,
    );
  });

  it.each([
    [{ email: 'not-an-email', password: 'a fine password!' }, 'invalid-email', 'email'],
    [{ email: 'short@example.com', password: 'short' }, 'weak-password', 'password'],
    [{ email: 'long@example.com', password: 'x'.repeat(129) }, 'weak-password', 'password'],
    [{ email: 'common@example.com', password: 'Password123' }, 'weak-password', 'password'],
    [
      { email: 'noname@example.com', password: 'a fine password!', name: '' },
      'validation-failed',
      'name',
    ],
  ])('refuses a bad sign-up (%o) with %s', async (body, code, field) => {
    const response = await new TestClient(app).post('/api/auth/sign-up/email', {
      name: 'Pat',
      ...body,
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code, field });
  });

  // A name is shown to sellers and put in mail: it carries no web address (issue 29).
  it.each(['http://x', 'evil.example', 'www.foo.com', 'buy at foo.ru', 'Pills http://e.example/0'])(
    'refuses a name that carries a web address (%s)',
    async (name) => {
      const response = await new TestClient(app).post('/api/auth/sign-up/email', {
        name,
        email: 'linky@example.com',
        password: 'a fine password!',
      });
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toMatchObject({ code: 'validation-failed', field: 'name' });
    },
  );

  it('takes names written with dots, as names are', async () => {
    for (const name of ['J. R. Smith', 'St. John', 'Dr. Ada Lovelace Jr.']) {
      const person = await register(app, { name });
      const answer = (await (await person.get('/api/auth/get-session')).json()) as {
        user: { name: string };
      };
      expect(answer.user.name).toBe(name);
    }
  });

  it('puts no session token in any answer: the cookie carries the session', async () => {
    const client = new TestClient(app);
    const email = `tokenless.${Date.now()}@example.com`;
    const password = 'a long and fine password';
    const answers = [
      await client.post('/api/auth/sign-up/email', { name: 'Tokenless', email, password }),
      await client.post('/api/auth/sign-in/email', { email, password }),
      await client.get('/api/auth/get-session'),
      await client.get('/api/auth/list-sessions'),
      await client.post('/api/auth/change-password', {
        currentPassword: password,
        newPassword: 'another long fine password',
      }),
    ];
    const tokens = await app.database.db
      .select({ token: session.token })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      .where(eq(user.email, email));
    expect(tokens.length).toBeGreaterThan(0);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text, answer.url).not.toMatch(/"token"/);
      for (const { token } of tokens) expect(text, answer.url).not.toContain(token);
    }
    // What the pages read is all there.
    const { user: who, session: current } = (await (
      await client.get('/api/auth/get-session')
    ).json()) as { user: { email: string }; session: { id: string; expiresAt: string } };
    expect(who.email).toBe(email);
    expect(current).toMatchObject({ id: expect.any(String), expiresAt: expect.any(String) });
  });

  it('never answers a malformed auth body with a 5xx', async () => {
    for (const body of ['{', '[]', '"text"', '{"email": 42, "password": {}}']) {
      const response = await fetch(`${app.baseUrl}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app.baseUrl },
        body,
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const person = await register(app);
    const wrong = await new TestClient(app).post('/api/auth/sign-in/email', {
      email: person.account.email,
      password: 'not my password',
    });
    const unknown = await new TestClient(app).post('/api/auth/sign-in/email', {
      email: 'nobody-here@example.com',
      password: 'not my password',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [a, b] = [await wrong.json(), await unknown.json()];
    expect(a).toEqual(b);
    expect(a).toEqual({ error: { code: 'wrong-password', message: expect.any(String) } });
  });

  it('signs in and out', async () => {
    const person = await register(app);
    const client = new TestClient(app);
    const signIn = await client.post('/api/auth/sign-in/email', {
      email: person.account.email,
      password: person.account.password,
    });
    expect(signIn.status).toBe(200);
    expect((await client.get(`/api/user/buyer/${person.account.email}`)).status).toBe(200);
    expect((await client.post('/api/auth/sign-out')).status).toBe(200);
    const after = await client.get(`/api/user/buyer/${person.account.email}`);
    expect(after.status).toBe(401);
  });

  it('resets a forgotten password through the link in the mail', async () => {
    const person = await register(app);
    const other = await signInAs(app, person.account.email, person.account.password);
    const request = await new TestClient(app).post('/api/auth/request-password-reset', {
      email: person.account.email,
      redirectTo: '/reset-password',
    });
    expect(request.status).toBe(200);
    const mail = await waitForMail(app, person.account.email, /reset/i);
    const link = /https?:\/\/\S+/.exec(mail.text)![0];

    // The link checks the token and sends the browser to the reset page with it.
    const visit = await new TestClient(app).get(new URL(link).pathname + new URL(link).search);
    expect(visit.status).toBe(302);
    const location = new URL(visit.headers.get('location')!, app.baseUrl);
    expect(location.pathname).toBe('/reset-password');
    const token = location.searchParams.get('token')!;

    const weak = await new TestClient(app).post('/api/auth/reset-password', {
      token,
      newPassword: 'password1',
    });
    expect((await errorOf(weak)).code).toBe('weak-password');
    const reset = await new TestClient(app).post('/api/auth/reset-password', {
      token,
      newPassword: 'a brand new passphrase',
    });
    expect(reset.status).toBe(200);

    const old = await new TestClient(app).post('/api/auth/sign-in/email', {
      email: person.account.email,
      password: person.account.password,
    });
    expect(old.status).toBe(401);
    await signInAs(app, person.account.email, 'a brand new passphrase');
    // Sessions opened with the old password end.
    expect((await other.get(`/api/user/buyer/${person.account.email}`)).status).toBe(401);
    const reused = await new TestClient(app).post('/api/auth/reset-password', {
      token,
      newPassword: 'yet another passphrase',
    });
    expect((await errorOf(reused)).code).toBe('invalid-action-code');
  });

  it("builds the reset link from the site's own address, whatever Host the request names", async () => {
    const person = await register(app);
    const siteOrigin = `http://localhost:${new URL(app.baseUrl).port}`;
    for (const headers of <Array<Record<string, string>>>[
      { host: 'evil.example' },
      { host: 'evil.example', origin: 'http://evil.example' },
      { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    ]) {
      await rawRequest(app.baseUrl, 'POST', '/api/auth/request-password-reset', {
        headers,
        json: { email: person.account.email, redirectTo: 'http://evil.example/steal' },
      });
      await rawRequest(app.baseUrl, 'POST', '/api/auth/request-password-reset', {
        headers,
        json: { email: person.account.email, redirectTo: '/reset-password' },
      });
    }
    await waitForMail(app, person.account.email, /reset/i);
    const mails = (await readOutbox(app.outboxDir)).filter(
      (m) => m.to === person.account.email && /reset/i.test(m.subject),
    );
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) {
      expect(mail.text).not.toContain('evil.example');
      expect(/https?:\/\/\S+/.exec(mail.text)![0]).toMatch(
        new RegExp(`^${siteOrigin}/api/auth/reset-password/`),
      );
    }
  });

  it('sends no mail for an unknown email but answers the same', async () => {
    const known = await register(app);
    const ask = (email: string) =>
      new TestClient(app).post('/api/auth/request-password-reset', {
        email,
        redirectTo: '/reset-password',
      });
    const unknown = await ask('unknown-person@example.com');
    const existing = await ask(known.account.email);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(await existing.json());
    // The known address's mail has come, so the unknown one's would have too.
    await waitForMail(app, known.account.email, /reset/i);
    expect(await mailsTo(app, 'unknown-person@example.com')).toEqual([]);
  });

  it('lets the seeded demo accounts sign in with their roles', async () => {
    for (const [email, flag] of [
      ['admin@demo.local', 'admin'],
      ['seller@demo.local', 'seller'],
      ['buyer@demo.local', 'buyer'],
    ] as const) {
      const client = await signInAs(app, email);
      const response = await client.get(`/api/user/${flag}/${email}`);
      expect(Object.values((await response.json()) as Record<string, boolean>)).toEqual([true]);
    }
  });

  it('refuses a session cookie whose signature was changed', async () => {
    const person = await register(app);
    const own = `/api/user/buyer/${person.account.email}`;
    const cookie = person.cookieHeader();
    expect((await app.request(own, { headers: { cookie } })).status).toBe(200);
    // The token kept, its signature swapped for another valid-looking one.
    const forged = cookie.replace(
      /\.([^.;]+)(;|$)/,
      (_all, _sig, end: string) =>
        `.${encodeURIComponent(Buffer.alloc(32, 7).toString('base64'))}${end}`,
    );
    expect(forged).not.toBe(cookie);
    expect((await app.request(own, { headers: { cookie: forged } })).status).toBe(401);
  });

  it('extends a session used a day after it began, and refuses one that has expired', async () => {
    const person = await register(app);
    const own = `/api/user/buyer/${person.account.email}`;
    const [mine] = await app.database.db
      .select({ id: session.id, userId: session.userId })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      .where(eq(user.email, person.account.email));
    const inSixDays = new Date(Date.now() + 6 * 24 * 3600 * 1000);
    await app.database.db
      .update(session)
      .set({ expiresAt: inSixDays })
      .where(eq(session.id, mine!.id));
    const used = await person.get(own);
    expect(used.status).toBe(200);
    // The browser's cookie is renewed with the session; else it would expire first.
    expect(used.headers.getSetCookie().join('\n')).toMatch(
      /session_token=[^;]+;.*Max-Age=60480\d/i,
    );
    const [extended] = await app.database.db
      .select({ expiresAt: session.expiresAt })
      .from(session)
      .where(eq(session.id, mine!.id));
    expect(extended!.expiresAt.getTime()).toBeGreaterThan(inSixDays.getTime() + 23 * 3600 * 1000);

    await app.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.id, mine!.id));
    expect((await person.get(own)).status).toBe(401);
  });

  it('signs out a session that was due for its extension: the cookie is cleared, not renewed', async () => {
    const person = await register(app);
    await app.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() + 6 * 24 * 3600 * 1000) })
      .where(
        eq(
          session.userId,
          app.database.db
            .select({ id: user.id })
            .from(user)
            .where(eq(user.email, person.account.email)),
        ),
      );
    expect((await person.post('/api/auth/sign-out')).status).toBe(200);
    // The browser reads its cookies in order: the clearing must come last.
    expect(person.hasSession()).toBe(false);
  });

  it('refuses sign-in to a deleted account', async () => {
    const person = await register(app);
    await app.database.db
      .update(user)
      .set({ deletedAt: new Date() })
      .where(eq(user.email, person.account.email));
    const response = await new TestClient(app).post('/api/auth/sign-in/email', {
      email: person.account.email,
      password: person.account.password,
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('user-disabled');
  });
});

describe('cookies behind HTTPS', () => {
  it('marks the session cookie Secure when PUBLIC_URL is https', async () => {
    const app = await startTestApp({ env: { PUBLIC_URL: 'https://cars.example' } });
    try {
      const response = await fetch(`${app.baseUrl}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://cars.example' },
        body: JSON.stringify({ email: 'buyer@demo.local', password: 'demo-drive-2026' }),
      });
      expect(response.status).toBe(200);
      const cookie = response.headers.getSetCookie().find((c) => c.includes('session_token'));
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
      // Only a secure page can set it, so no plain-http page can plant a "known browser".
      const known = response.headers.getSetCookie().find((c) => c.includes('known_browser'));
      expect(known).toMatch(/^__Secure-carmarket\.known_browser=[^;]+;/);
      expect(known).toMatch(/;\s*Secure/i);
    } finally {
      await app.close();
    }
  });
});

describe('the auth secret', () => {
  it('is generated once per data directory and kept across restarts', async () => {
    const app = await startTestApp();
    const file = path.join(app.dataDir, 'auth-secret');
    const secret = await fs.readFile(file, 'utf8');
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect((await fs.stat(file)).mode & 0o077).toBe(0);
    await app.close();
  });
});

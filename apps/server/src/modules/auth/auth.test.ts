import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, session, user } from '../../db/schema.ts';
import { readOutbox } from '../../adapters/mail.ts';
import { mailsTo, waitForMail } from '../../test/mail.ts';
import { codeOf, errorOf, rawRequest, register, signInAs, TestClient } from '../../test/client.ts';
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

  it('refuses a second account for the same email, whatever its case', async () => {
    const first = await register(app);
    const response = await new TestClient(app).post('/api/auth/sign-up/email', {
      name: 'Copy',
      email: first.account.email.toUpperCase(),
      password: 'another fine password',
    });
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe('email-already-in-use');
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

describe('deleted accounts', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const DAY_MS = 24 * 60 * 60 * 1000;
  const today = () => Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const longDate = (time: number) =>
    new Date(time).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });

  /** Registers someone and deletes them as an admin does, `deletedAt` moved to the given time. */
  async function deletedPerson(deletedAt: number) {
    const person = await register(app);
    const [row] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, person.account.email));
    const admin = await signInAs(app, 'admin@demo.local');
    const removed = await admin.request(`/api/user/remove/${row!.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    await app.database.db
      .update(user)
      .set({ deletedAt: new Date(deletedAt) })
      .where(eq(user.id, row!.id));
    return { ...person.account, id: row!.id };
  }

  const signUp = (email: string) =>
    new TestClient(app).post('/api/auth/sign-up/email', {
      name: 'New Owner',
      email,
      password: 'a brand new password',
    });
  const signIn = (email: string, password: string) =>
    new TestClient(app).post('/api/auth/sign-in/email', { email, password });

  it('mails a deleted account no reset link, and answers as for any address', async () => {
    const gone = await deletedPerson(Date.now());
    const known = await register(app);
    const ask = (email: string) =>
      new TestClient(app).post('/api/auth/request-password-reset', {
        email,
        redirectTo: '/reset-password',
      });
    const deletedAnswer = await ask(gone.email);
    // The live account asks last: its mail is sent after any the deleted one's would have been.
    const knownAnswer = await ask(known.account.email);
    expect(deletedAnswer.status).toBe(200);
    expect(await deletedAnswer.json()).toEqual(await knownAnswer.json());
    await waitForMail(app, known.account.email, /reset/i);
    expect((await mailsTo(app, gone.email)).filter((mail) => /reset/i.test(mail.subject))).toEqual(
      [],
    );
  });

  it('holds the address for 30 days, and registering and signing in both say until when (rough edge 13)', async () => {
    // Deleted yesterday at 10:00 (UTC): free from the start of the day 30 days after today.
    const gone = await deletedPerson(today() - DAY_MS + 10 * 3600 * 1000);
    const deletedOn = longDate(today() - DAY_MS);
    const freeFrom = longDate(today() + 30 * DAY_MS);

    const again = await signUp(gone.email.toUpperCase());
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatchObject({
      code: 'email-already-in-use',
      field: 'email',
      message: `An account with this email was deleted on ${deletedOn}. The address can be used for a new account from ${freeFrom}.`,
    });

    const signedIn = await signIn(gone.email, gone.password);
    expect(signedIn.status).toBe(403);
    expect(await errorOf(signedIn)).toMatchObject({
      code: 'user-disabled',
      message: `This account was deleted on ${deletedOn}. Its email address can be used for a new account from ${freeFrom}.`,
    });
    // A wrong password learns nothing about the account.
    expect(await codeOf(await signIn(gone.email, 'not the password'))).toBe('wrong-password');
  });

  it('frees the address after the hold: the old password no longer works and a new account can be made (rough edge 13)', async () => {
    const gone = await deletedPerson(today() - 31 * DAY_MS);

    const oldPassword = await signIn(gone.email, gone.password);
    expect(oldPassword.status).toBe(401);
    expect((await errorOf(oldPassword)).code).toBe('wrong-password');

    expect((await signUp(gone.email)).status).toBe(200);
    expect((await signIn(gone.email, 'a brand new password')).status).toBe(200);
    // The deleted account stays for the records, under an address nobody can have.
    const [old] = await app.database.db
      .select({ email: user.email, deletedAt: user.deletedAt })
      .from(user)
      .where(eq(user.id, gone.id));
    expect(old).toEqual({
      email: `deleted-${gone.id}@deleted.invalid`,
      deletedAt: expect.any(Date),
    });
    const logins = await app.database.db.select().from(account).where(eq(account.userId, gone.id));
    expect(logins).toEqual([]);
  });

  it('frees every address whose hold is over once an hour, and no other (rough edge 13)', async () => {
    const over = await deletedPerson(today() - 30 * DAY_MS);
    const held = await deletedPerson(today() - 29 * DAY_MS);
    expect(await app.releaseDeletedEmails()).toBeGreaterThanOrEqual(1);
    const emailOf = async (id: string) =>
      (await app.database.db.select({ email: user.email }).from(user).where(eq(user.id, id)))[0]
        ?.email;
    expect(await emailOf(over.id)).toBe(`deleted-${over.id}@deleted.invalid`);
    expect(await emailOf(held.id)).toBe(held.email);
    expect(await app.releaseDeletedEmails()).toBe(0);
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

/** A stand-in for Google's token and user-info endpoints. */
async function startFakeGoogle(profile: { sub: string; email: string; name: string }) {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url?.split('?')[0]}`);
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/token')) {
      res.end(
        JSON.stringify({
          access_token: 'fake-access',
          token_type: 'Bearer',
          expires_in: 3600,
          scope: 'openid email profile',
        }),
      );
    } else if (req.url?.startsWith('/userinfo')) {
      if (req.headers.authorization !== 'Bearer fake-access') {
        res.statusCode = 401;
        res.end('{}');
        return;
      }
      res.end(JSON.stringify({ ...profile, email_verified: true, picture: '' }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe('Google sign-in', () => {
  it('is off without credentials, and the sign-in options say so (rough edge 4)', async () => {
    const app = await startTestApp();
    try {
      const options = await app.request('/api/sign-in-options');
      expect(await options.json()).toEqual({
        google: false,
        emailLink: true,
        requireVerifiedEmail: false,
        deletedAccountHoldDays: 30,
      });
      const response = await new TestClient(app).post('/api/auth/sign-in/social', {
        provider: 'google',
      });
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toMatchObject({
        code: 'not-found',
        message: 'Google sign-in is not set up on this server.',
      });
    } finally {
      await app.close();
    }
  });

  it('creates the user from the provider answer and makes a first sign-in a Buyer', async () => {
    const google = await startFakeGoogle({
      sub: 'g-123',
      email: 'gina@gmail.example',
      name: 'Gina Google',
    });
    const app = await startTestApp({
      env: {
        GOOGLE_CLIENT_ID: 'client-id',
        GOOGLE_CLIENT_SECRET: 'client-secret',
        GOOGLE_AUTHORIZATION_URL: `${google.url}/authorize`,
        GOOGLE_TOKEN_URL: `${google.url}/token`,
        GOOGLE_USERINFO_URL: `${google.url}/userinfo`,
      },
    });
    try {
      // What the sign-in and register pages ask before they offer the button (rough edge 4).
      const options = await app.request('/api/sign-in-options');
      expect(await options.json()).toEqual({
        google: true,
        emailLink: true,
        requireVerifiedEmail: false,
        deletedAccountHoldDays: 30,
      });

      const client = new TestClient(app);
      const start = await client.post('/api/auth/sign-in/social', {
        provider: 'google',
        callbackURL: '/',
      });
      expect(start.status).toBe(200);
      const { url } = (await start.json()) as { url: string };
      const authorize = new URL(url);
      expect(authorize.origin + authorize.pathname).toBe(`${google.url}/authorize`);
      const state = authorize.searchParams.get('state')!;

      // The provider sends the browser back with a code; the server trades it for the profile.
      const callback = await client.get(
        `/api/auth/callback/google?code=fake-code&state=${encodeURIComponent(state)}`,
      );
      expect(callback.status).toBe(302);
      expect(google.calls).toEqual(expect.arrayContaining(['POST /token', 'GET /userinfo']));
      expect(client.hasSession()).toBe(true);

      const registered = await client.post('/api/google/user', {
        name: 'Gina Google',
        email: 'gina@gmail.example',
      });
      expect(await registered.json()).toEqual({ acknowledged: true });
      const isBuyer = await client.get('/api/user/buyer/gina@gmail.example');
      expect(await isBuyer.json()).toEqual({ isBuyer: true });
    } finally {
      await app.close();
      await google.close();
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

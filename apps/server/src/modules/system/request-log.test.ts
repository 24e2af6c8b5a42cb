import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user } from '../../db/schema.ts';
import { errorForLog } from '../../lib/log-errors.ts';
import { register, signInAs, TestClient } from '../../test/client.ts';
import { book, newCar, payFor, TEST_CARD } from '../../test/fixtures.ts';
import { linkIn, waitForMail } from '../../test/mail.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { ask } from '../messages/messages.test-helpers.ts';
import { hold, startPaying } from '../payments/payments.test-helpers.ts';
import { buyerWithMail, listCar, mailTo, saveSearch } from '../saved/saved.test-helpers.ts';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  route?: string;
  method?: string;
  status?: number;
  ms?: number;
  userId?: string;
}

/** The values a link carries that open something: its path's long segments and its query's. */
function tokensIn(link: URL): string[] {
  return [...link.pathname.split('/'), ...link.searchParams.values()].filter(
    (part) => part.length >= 16 && !part.startsWith('/') && !part.includes('://'),
  );
}

/** Each cookie value a client holds, as sent and decoded, and the session token inside it. */
function cookieSecrets(client: TestClient): string[] {
  return client
    .cookieHeader()
    .split('; ')
    .flatMap((pair) => {
      const value = pair.slice(pair.indexOf('=') + 1);
      const decoded = decodeURIComponent(value);
      return [value, decoded, decoded.split('.')[0]!];
    })
    .filter((secret) => secret.length >= 16);
}

describe('the request log', () => {
  let app: TestApp;
  const written: string[] = [];
  let httpRequests = 0;
  let closed = false;
  beforeAll(async () => {
    app = await startTestApp({
      env: { ALERT_INTERVAL_MS: '3600000', ALERT_DIGEST_HOURS: '24' },
      logger: { level: 'info', stream: { write: (line: string) => written.push(line) } },
    });
    app.app.server.on('request', () => (httpRequests += 1));
  });
  afterAll(async () => {
    if (!closed) await app.close();
  });

  it('writes one line per request and none of the secrets a whole run used', async () => {
    const secrets: string[] = [];
    const keep = (...values: string[]) => secrets.push(...values);

    // Sign-up, its confirmation link, and sign-in.
    const password = `pw-${randomBytes(12).toString('hex')}`;
    keep(password);
    const buyer = await buyerWithMail(app, { password });
    const confirm = await waitForMail(app, buyer.account.email, /^Confirm your CarMarket email/);
    keep(...tokensIn(linkIn(confirm)));
    const signedIn = await signInAs(app, buyer.account.email, password);
    const [{ id: buyerId }] = (await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, buyer.account.email))) as [{ id: string }];
    keep(...cookieSecrets(buyer), ...cookieSecrets(signedIn));

    // A bearer token, used.
    const minted = await signedIn.get(`/api/jwt?email=${encodeURIComponent(buyer.account.email)}`);
    const { accessToken } = (await minted.json()) as { accessToken: string };
    keep(accessToken);
    const bearer = new TestClient(app);
    bearer.bearer = accessToken;
    expect(
      (await bearer.get(`/api/user/buyer/${encodeURIComponent(buyer.account.email)}`)).status,
    ).toBe(200);

    // A forgotten password, reset through the mailed link.
    const forgetful = await register(app, { password: `pw-${randomBytes(12).toString('hex')}` });
    keep(forgetful.account.password);
    await new TestClient(app).post('/api/auth/request-password-reset', {
      email: forgetful.account.email,
      redirectTo: '/reset-password',
    });
    const resetLink = linkIn(await waitForMail(app, forgetful.account.email, /reset/i));
    keep(...tokensIn(resetLink));
    const visit = await new TestClient(app).get(resetLink.pathname + resetLink.search);
    const token = new URL(visit.headers.get('location')!, app.baseUrl).searchParams.get('token')!;
    keep(token);
    const newPassword = `new-${randomBytes(12).toString('hex')}`;
    keep(newPassword);
    const reset = await new TestClient(app).post('/api/auth/reset-password', {
      token,
      newPassword,
    });
    expect(reset.status).toBe(200);

    // A sign-in link.
    await new TestClient(app).post('/api/auth/sign-in/magic-link', {
      email: forgetful.account.email,
      callbackURL: '/dashboard',
    });
    const magic = linkIn(await waitForMail(app, forgetful.account.email, /sign-in link/));
    keep(...tokensIn(magic));
    const viaLink = new TestClient(app);
    expect((await viaLink.get(magic.pathname + magic.search)).status).toBe(302);
    keep(...cookieSecrets(viaLink));

    // A change of address, confirmed through the link sent to the new one.
    const newEmail = `moved-${Date.now()}@example.com`;
    const asked = await signedIn.post('/api/auth/change-email', {
      newEmail,
      currentPassword: password,
    });
    expect(asked.status).toBe(200);
    const change = linkIn(await waitForMail(app, newEmail, /Confirm your new CarMarket email/));
    keep(...tokensIn(change));
    expect((await signedIn.get(change.pathname + change.search)).status).toBe(302);

    // A saved search's alert, and its unsubscribe link.
    const seller = await signInAs(app, 'seller@demo.local');
    keep(...cookieSecrets(seller));
    const watcher = await buyerWithMail(app);
    keep(watcher.account.password, ...cookieSecrets(watcher));
    await saveSearch(watcher, 'Hondas', 'make=Honda');
    await listCar(seller, {
      name: 'Honda Civic',
      make: 'Honda',
      model: 'Civic',
      reprice: 10_000_00,
      year: 2015,
    });
    await app.runAlerts();
    const [alert] = await mailTo(app, watcher.account.email);
    const unsubscribe = /\/unsubscribe\?token=(\S+)/.exec(alert!.text)![1]!;
    keep(unsubscribe);
    const stopped = await new TestClient(app).post(`/api/unsubscribe?token=${unsubscribe}`);
    expect(stopped.status).toBe(200);

    // A booking paid by card in the sandbox, and a message to the seller.
    const car = await newCar(app);
    const payer = await book(app, car.id);
    keep(...cookieSecrets(payer));
    expect((await startPaying(payer, payer.bookingId)).response.status).toBe(200);
    expect((await hold(payer, payer.bookingId)).response.status).toBe(200);
    await payFor(payer, payer.bookingId);
    keep(TEST_CARD.number, TEST_CARD.number.replaceAll(' ', ''));
    const words = `Is the cambelt done? ${randomBytes(8).toString('hex')}`;
    keep(words);
    await ask(watcher, (await newCar(app)).id, words);

    await app.close();
    closed = true;

    const log = written.join('');
    expect(secrets.length).toBeGreaterThan(15);
    for (const secret of new Set(secrets)) {
      expect(log.includes(secret), `the log holds a secret: ${secret.slice(0, 6)}…`).toBe(false);
    }

    const lines = written.map((line) => JSON.parse(line) as LogLine);
    const requests = lines.filter((line) => line.msg === 'request');
    // The sandbox's webhook reaches the server in-process (app.inject): logged, not over HTTP.
    const overHttp = requests.filter((line) => line.route !== '/api/payments/webhook/:provider');
    expect(overHttp).toHaveLength(httpRequests);
    expect(requests.length).toBeGreaterThan(overHttp.length);
    expect(new Set(requests.map((line) => line.reqId)).size).toBe(requests.length);
    for (const line of requests) {
      expect(line).toEqual(
        expect.objectContaining({
          reqId: expect.stringMatching(/^[\w-]{8,}$/),
          route: expect.stringMatching(/^(\/|unmatched$)/),
          method: expect.stringMatching(/^[A-Z]+$/),
          status: expect.any(Number),
          ms: expect.any(Number),
        }),
      );
      expect(line.route).not.toContain('@');
    }
    expect(lines.some((line) => line.msg === 'incoming request')).toBe(false);

    // The signed-in person's calls name them; anonymous ones name nobody.
    const mine = requests.filter((line) => line.route === '/api/user/buyer/:email');
    expect(mine.length).toBeGreaterThan(0);
    for (const line of mine) expect(line.userId).toBe(buyerId);
    const unsubscribed = requests.find((line) => line.route === '/api/unsubscribe');
    expect(unsubscribed?.userId).toBeUndefined();
  });

  it('logs a failed statement without the values it was sent with', () => {
    const failed = Object.assign(
      new Error('Failed query: select 1 where token = $1\nparams: very-secret-token'),
      {
        query: 'select 1 where token = $1',
        params: ['very-secret-token'],
        cause: Object.assign(new Error('relation does not exist'), { code: '42P01' }),
      },
    );
    const logged = JSON.stringify(errorForLog(failed));
    expect(logged).not.toContain('very-secret-token');
    expect(logged).toContain('select 1 where token = $1');
    expect(logged).toContain('42P01');
  });
});

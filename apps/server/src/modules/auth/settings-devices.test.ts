import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceSessionListSchema } from '@carmarket/shared';
import { session } from '../../db/schema.ts';
import { register, TestClient } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { bearerOf, whoIs } from './auth.test-helpers.ts';

describe('my account: signed-in devices', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  /** Signs in again from a browser that says it is Firefox on Windows. */
  async function firefoxOf(person: { account: { email: string; password: string } }) {
    const client = new TestClient(app);
    const response = await client.request('/api/auth/sign-in/email', {
      method: 'POST',
      json: { email: person.account.email, password: person.account.password },
      headers: {
        'user-agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0',
      },
    });
    expect(response.status).toBe(200);
    return Object.assign(client, { account: person.account });
  }

  it('lists where you are signed in, this one marked, and no session tokens', async () => {
    const person = await register(app);
    await firefoxOf(person);
    const response = await person.get('/api/auth/list-sessions');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    const devices = DeviceSessionListSchema.parse(JSON.parse(text));
    expect(devices).toHaveLength(2);
    expect(devices[0]).toMatchObject({ current: true });
    expect(devices[1]).toMatchObject({ current: false, browser: 'Firefox', os: 'Windows' });
    expect(devices[1]!.ipAddress).toMatch(/127\.0\.0\.1/);
    const tokens = await app.database.db.select({ token: session.token }).from(session);
    for (const { token } of tokens) expect(text).not.toContain(token);
    expect(Object.keys(devices[0]!).sort()).toEqual(
      ['browser', 'createdAt', 'current', 'id', 'ipAddress', 'lastUsedAt', 'os'].sort(),
    );
  });

  it('shows when each was last used, to a few minutes', async () => {
    const person = await register(app);
    const { session: mine } = (await whoIs(person))!;
    const hourAgo = new Date(Date.now() - 3600_000);
    await app.database.db
      .update(session)
      .set({ lastSeenAt: hourAgo, createdAt: hourAgo })
      .where(eq(session.id, mine.id));
    await person.get(`/api/user/buyer/${person.account.email}`);
    const [device] = DeviceSessionListSchema.parse(
      await (await person.get('/api/auth/list-sessions')).json(),
    );
    expect(Date.now() - Date.parse(device!.lastUsedAt)).toBeLessThan(60_000);
  });

  it('signs out one device: its cookie and its bearer token stop at once', async () => {
    const person = await register(app);
    const firefox = await firefoxOf(person);
    const firefoxToken = await bearerOf(firefox);
    const me = `/api/user/buyer/${person.account.email}`;
    const devices = DeviceSessionListSchema.parse(
      await (await person.get('/api/auth/list-sessions')).json(),
    );
    const other = devices.find((device) => !device.current)!;
    expect((await person.post('/api/auth/revoke-session', { id: other.id })).status).toBe(200);
    expect((await firefox.get(me)).status).toBe(401);
    expect((await firefoxToken.get(me)).status).toBe(401);
    expect((await person.get(me)).status).toBe(200);
    // Gone from the list; asking again is answered as for a session that is not there.
    const after = DeviceSessionListSchema.parse(
      await (await person.get('/api/auth/list-sessions')).json(),
    );
    expect(after.map((device) => device.id)).not.toContain(other.id);
    expect((await person.post('/api/auth/revoke-session', { id: other.id })).status).toBe(404);
  });

  it("cannot sign out someone else's device", async () => {
    const person = await register(app);
    const stranger = await register(app);
    const [theirs] = DeviceSessionListSchema.parse(
      await (await stranger.get('/api/auth/list-sessions')).json(),
    );
    const response = await person.post('/api/auth/revoke-session', { id: theirs!.id });
    expect(response.status).toBe(404);
    expect((await stranger.get(`/api/user/buyer/${stranger.account.email}`)).status).toBe(200);
    const bad = await person.post('/api/auth/revoke-session', { token: 'anything' });
    expect(bad.status).toBe(400);
  });

  it('signs out everywhere else, keeping this device', async () => {
    const person = await register(app);
    const firefox = await firefoxOf(person);
    const second = await firefoxOf(person);
    const secondToken = await bearerOf(second);
    const me = `/api/user/buyer/${person.account.email}`;
    expect((await person.post('/api/auth/revoke-other-sessions')).status).toBe(200);
    expect((await firefox.get(me)).status).toBe(401);
    expect((await second.get(me)).status).toBe(401);
    expect((await secondToken.get(me)).status).toBe(401);
    expect((await person.get(me)).status).toBe(200);
    const devices = DeviceSessionListSchema.parse(
      await (await person.get('/api/auth/list-sessions')).json(),
    );
    expect(devices.map((device) => device.current)).toEqual([true]);
  });
});

describe('my account: the address a device signed in from', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Behind a proxy that says who the client is (X-Forwarded-For).
    app = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => app.close());

  it('is the client address the server trusts, never one a client names itself', async () => {
    const person = await register(app);
    const phone = new TestClient(app);
    const signIn = await phone.request('/api/auth/sign-in/email', {
      method: 'POST',
      json: { email: person.account.email, password: person.account.password },
      headers: { 'x-forwarded-for': '203.0.113.7', 'x-carmarket-client-ip': '198.51.100.66' },
    });
    expect(signIn.status).toBe(200);
    const devices = DeviceSessionListSchema.parse(
      await (await person.get('/api/auth/list-sessions')).json(),
    );
    expect(devices.find((device) => !device.current)?.ipAddress).toBe('203.0.113.7');
    expect(JSON.stringify(devices)).not.toContain('198.51.100.66');
  });
});

describe('my account: ways of signing in', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('says whether the account has a password, and nothing of its providers’ ids', async () => {
    const person = await register(app);
    const response = await person.get('/api/auth/list-accounts');
    expect(response.status).toBe(200);
    const methods = (await response.json()) as Array<Record<string, unknown>>;
    expect(methods.map((method) => method.provider)).toEqual(['credential']);
    expect(Object.keys(methods[0]!).sort()).toEqual(['createdAt', 'provider']);
    expect((await new TestClient(app).get('/api/auth/list-accounts')).status).toBe(401);
  });
});

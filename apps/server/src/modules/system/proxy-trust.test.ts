import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawResponse } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/*
 * TRUST_PROXY (decision 039): behind a proxy that appends to X-Forwarded-For, the client writes
 * the left of the header and the proxy the right; only what the trusted hops wrote is believed.
 */

let made = 0;
function signUp(app: TestApp, forwardedFor: string, requestId?: string): Promise<RawResponse> {
  made += 1;
  return rawRequest(app.baseUrl, 'POST', '/api/auth/sign-up/email', {
    headers: {
      origin: app.baseUrl,
      'x-forwarded-for': forwardedFor,
      ...(requestId ? { 'x-request-id': requestId } : {}),
    },
    json: {
      name: 'New Person',
      email: `proxy${made}.${Date.now()}@example.com`,
      password: 'correct horse battery',
    },
  });
}

/** An address no other test (or earlier run, on a shared Redis) has used. */
const freshIp = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;
const freshV6 = () => `2001:db8:${randomInt(65536).toString(16)}:${randomInt(65536).toString(16)}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('behind one proxy (TRUST_PROXY=1)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { TRUST_PROXY: '1', SIGN_UP_LIMIT_PER_IP: '2', SIGN_UP_LIMIT_PER_IP_PER_DAY: '100' },
    });
  });
  afterAll(() => app.close());

  it('counts the address the proxy saw, whatever the client wrote before it', async () => {
    const client = freshIp();
    expect((await signUp(app, `203.0.113.1, ${client}`)).status).toBe(200);
    expect((await signUp(app, `203.0.113.2, ${client}`)).status).toBe(200);
    expect((await signUp(app, `203.0.113.3, ${client}`)).status).toBe(429);
    // Another client behind the same proxy is not held up.
    const other = await signUp(app, `203.0.113.3, ${freshIp()}`);
    expect(other.status, other.text).toBe(200);
  });

  it('counts an IPv6 client by its /64', async () => {
    const network = freshV6();
    expect((await signUp(app, `${network}:0:0:0:1`)).status).toBe(200);
    expect((await signUp(app, `${network}:ffff:1:2:3`)).status).toBe(200);
    expect((await signUp(app, `${network}::9`)).status).toBe(429);
    expect((await signUp(app, `${freshV6()}::1`)).status).toBe(200);
  });

  it("keeps the proxy's request id and answers it back; a malformed one is replaced", async () => {
    const kept = await signUp(app, freshIp(), 'nginx-4f1c2a9b7e');
    expect(kept.headers['x-request-id']).toBe('nginx-4f1c2a9b7e');
    const replaced = await signUp(app, freshIp(), 'not an id; <script>');
    expect(replaced.headers['x-request-id']).toMatch(UUID);
  });
});

describe('without a trusted proxy (the default)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { SIGN_UP_LIMIT_PER_IP: '1000', SIGN_UP_LIMIT_PER_IP_PER_DAY: '1000' },
    });
  });
  afterAll(() => app.close());

  it('makes its own request id for every answer, whatever the client sends', async () => {
    const home = await rawRequest(app.baseUrl, 'GET', '/api/health', {
      headers: { 'x-request-id': 'chosen-by-client' },
    });
    expect(home.headers['x-request-id']).toMatch(UUID);
    const missing = await rawRequest(app.baseUrl, 'GET', '/api/no-such-thing');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-request-id']).toMatch(UUID);
    expect(missing.headers['x-request-id']).not.toBe(home.headers['x-request-id']);
  });
});

describe('behind proxies named by address (TRUST_PROXY=loopback)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: {
        TRUST_PROXY: 'loopback,10.0.0.0/8',
        SIGN_UP_LIMIT_PER_IP: '1',
        SIGN_UP_LIMIT_PER_IP_PER_DAY: '100',
      },
    });
  });
  afterAll(() => app.close());

  it('counts the right-most address that is not one of them', async () => {
    const client = freshIp();
    // The test's own connection comes from 127.0.0.1 (a trusted proxy), after 10.1.2.3 (another).
    expect((await signUp(app, `203.0.113.7, ${client}, 10.1.2.3`)).status).toBe(200);
    expect((await signUp(app, `203.0.113.8, ${client}, 10.9.9.9`)).status).toBe(429);
  });
});

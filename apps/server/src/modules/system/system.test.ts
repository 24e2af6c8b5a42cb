import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe('health and readiness', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('reports the process up', async () => {
    const response = await app.request('/api/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('reports the database answering', async () => {
    const response = await app.request('/api/ready');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', database: 'up' });
  });

  it('serves the OpenAPI description and the docs page', async () => {
    const spec = await app.request('/api/docs/json');
    expect(spec.status).toBe(200);
    const document = (await spec.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/ready', '/api/category', '/api/category/{id}']),
    );
    const page = await app.request('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('gives the docs page a CSP of its own that lets Swagger UI style itself, and no other page', async () => {
    // Each body is read to its end: an unread one holds its connection open, and closing the
    // server then waits for it.
    const page = await app.request('/api/docs');
    await page.arrayBuffer();
    const docs = page.headers.get('content-security-policy') ?? '';
    expect(docs).toContain("style-src 'self' 'unsafe-inline'");
    expect(docs).toContain("script-src 'self';");
    expect(docs).toContain("frame-ancestors 'none'");
    expect(docs).not.toContain('https:');
    const assets = await app.request('/api/docs/static/swagger-ui.css');
    await assets.arrayBuffer();
    expect(assets.headers.get('content-security-policy')).toBe(docs);
    const site = (await app.request('/api/health')).headers.get('content-security-policy');
    expect(site).not.toBe(docs);
  });

  it('sends security headers with a CSP that allows no inline script', async () => {
    const response = await app.request('/api/health');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('stripe.com');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers an unknown API path with the error shape', async () => {
    const response = await app.request('/api/no-such-thing');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: 'not-found', message: expect.stringContaining('/api/no-such-thing') },
    });
  });

  it('answers 503 when the database stops answering', async () => {
    const other = await startTestApp();
    await other.database.close();
    const response = await other.request('/api/ready');
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unavailable');
    await other.app.close().catch(() => {});
  });
});

describe('slow clients', () => {
  it('disconnects a client that never finishes its request', async () => {
    const app = await startTestApp({ env: { REQUEST_TIMEOUT_SECONDS: '1' } });
    try {
      const { port } = new URL(app.baseUrl);
      const closedAfter = (partial: string) =>
        new Promise<number>((resolve, reject) => {
          const started = Date.now();
          const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(partial));
          socket.on('close', () => resolve(Date.now() - started));
          socket.on('error', () => {});
          setTimeout(() => {
            socket.destroy();
            reject(new Error('the server kept the connection open'));
          }, 10_000).unref();
        });
      const [silent, halfHeaders] = await Promise.all([
        closedAfter(''),
        closedAfter('GET /api/health HTTP/1.1\r\nHost: localhost\r\n'),
      ]);
      expect(silent).toBeLessThan(10_000);
      expect(halfHeaders).toBeLessThan(10_000);
    } finally {
      await app.close();
    }
  });
});

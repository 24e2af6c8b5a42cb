import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../test/client.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

/** A stand-in for `apps/web/dist` with the files the build writes. */
async function writeDist(dir: string) {
  const page = (name: string) =>
    `<!doctype html><html><head><script type="module" src="/assets/app-3f2a1b.js"></script></head><body><div id="root">${name}</div></body></html>`;
  const script = 'console.log("app");'.repeat(200);
  await fs.mkdir(path.join(dir, 'assets'), { recursive: true });
  await fs.mkdir(path.join(dir, 'blog'), { recursive: true });
  await fs.writeFile(path.join(dir, 'index.html'), page('home'));
  await fs.writeFile(path.join(dir, 'blog/index.html'), page('blog'));
  await fs.writeFile(path.join(dir, 'spa.html'), page(''));
  await fs.writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await fs.writeFile(path.join(dir, 'assets/app-3f2a1b.js'), script);
  await fs.writeFile(path.join(dir, 'assets/app-3f2a1b.js.gz'), gzipSync(script));
  await fs.writeFile(
    path.join(dir, 'prerendered.json'),
    JSON.stringify({ '/': 'index.html', '/blog': 'blog/index.html' }),
  );
}

describe('serving the web app', () => {
  let app: TestApp;
  beforeAll(async () => {
    const probe = await startTestApp();
    await writeDist(path.join(probe.dataDir, 'web-dist'));
    await probe.close();
    app = await startTestApp({ reuse: { dataDir: probe.dataDir, databaseUrl: probe.databaseUrl } });
  });
  afterAll(() => app.close());

  it('serves prerendered pages at their clean URLs, revalidated on every visit', async () => {
    for (const [url, marker] of [
      ['/', 'home'],
      ['/blog', 'blog'],
      ['/blog/', 'blog'],
    ] as const) {
      const response = await app.request(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain(`<div id="root">${marker}</div>`);
    }
  });

  it('serves pages and assets to clients that ask for no compression (curl, uptime monitors)', async () => {
    for (const [url, marker] of [
      ['/', '<div id="root">home</div>'],
      ['/blog/', '<div id="root">blog</div>'],
      ['/blog', '<div id="root">blog</div>'],
      ['/assets/app-3f2a1b.js', 'console.log'],
    ] as const) {
      const response = await rawRequest(app.baseUrl, 'GET', url);
      expect(response.status, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBeUndefined();
      expect(response.text, url).toContain(marker);
    }
  });

  it('serves the app shell for client routes and 404 with the shell for unknown paths', async () => {
    const known = await app.request('/category/0d7c0a1e-2a52-4c51-9b0b-7f6f2a1d9e10');
    expect(known.status).toBe(200);
    expect(await known.text()).toContain('<div id="root"></div>');
    const unknown = await app.request('/no/such/page');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/text\/html/);
  });

  it("sends the spec's short addresses to their dashboard pages", async () => {
    for (const [from, to] of [
      ['/orders', '/dashboard/orders'],
      ['/product', '/dashboard/add-product'],
      ['/myProduct?x=1', '/dashboard/my-products?x=1'],
    ]) {
      const response = await app.request(from!, { redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(to);
    }
  });

  it('caches hashed assets for a year and serves them compressed', async () => {
    const response = await app.request('/assets/app-3f2a1b.js', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toContain('console.log("app")');
  });

  it('caches other static files briefly', async () => {
    const response = await app.request('/favicon.svg');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('keeps JSON 404s for unknown API paths and missing assets', async () => {
    const api = await app.request('/api/nothing-here');
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('not-found');
    const asset = await app.request('/assets/missing-000000.js');
    expect(asset.status).toBe(404);
  });
});

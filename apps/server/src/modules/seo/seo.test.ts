import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { category, listing, ON_SALE_SQL } from '../../db/schema.ts';
import { codeOf, signInAs } from '../../test/client.ts';
import { newCar } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/** Every `<loc>` of a sitemap or a sitemap index, in order. */
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);

async function xmlOf(app: TestApp, path: string) {
  const response = await app.request(path);
  expect(response.status, path).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
  const xml = await response.text();
  expect(xml).toMatch(
    /^<\?xml version="1.0" encoding="UTF-8"\?>\n<(urlset|sitemapindex) xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
  );
  return xml;
}

describe('robots.txt and the sitemap, browsing closed (the default)', () => {
  let app: TestApp;
  const origin = 'https://cars.example.com';
  beforeAll(async () => {
    app = await startTestApp({ env: { PUBLIC_URL: `${origin}/` } });
  });
  afterAll(() => app.close());

  it('lets robots read the public pages only, and names the sitemap at the public address', async () => {
    const response = await app.request('/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = (await response.text()).split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Allow: /');
    for (const path of [
      '/api/',
      '/dashboard',
      '/login',
      '/register',
      '/forgot-password',
      '/reset-password',
      '/unsubscribe',
      // Behind sign-in while browsing is closed.
      '/cars',
      '/category/',
      '/listing/',
    ]) {
      expect(lines, path).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain(`Sitemap: ${origin}/sitemap.xml`);
  });

  it('lists only the public pages, and has no car sitemaps', async () => {
    const index = await xmlOf(app, '/sitemap.xml');
    expect(locs(index)).toEqual([`${origin}/sitemap-pages.xml`]);
    const pages = locs(await xmlOf(app, '/sitemap-pages.xml'));
    expect(pages).toEqual(expect.arrayContaining([`${origin}/`, `${origin}/blog`]));
    expect(pages.some((loc) => /^\/(cars|category|listing)\b/.test(new URL(loc).pathname))).toBe(
      false,
    );
    const cars = await app.request('/sitemap-cars.xml');
    expect(cars.status).toBe(404);
    expect(await codeOf(cars)).toBe('not-found');
  });
});

describe('the sitemap, browsing open', () => {
  let app: TestApp;
  let origin: string;
  const perPage = 4;
  beforeAll(async () => {
    app = await startTestApp({ env: { BROWSE_SIGNED_OUT: 'true' }, carsPerSitemap: perPage });
    origin = `http://localhost:${new URL(app.baseUrl).port}`;
  });
  afterAll(() => app.close());

  it('lets robots read the search, category and car pages', async () => {
    const lines = (await (await app.request('/robots.txt')).text()).split('\n');
    expect(lines).toContain('Disallow: /dashboard');
    for (const path of ['/cars', '/category/', '/listing/']) {
      expect(lines, path).not.toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain(`Sitemap: ${origin}/sitemap.xml`);
  });

  it('lists every car on sale once, in pages of at most the page size, each with its last change', async () => {
    // Cars that left sale are not listed; a reserved one still is.
    const seller = await signInAs(app, 'seller@demo.local');
    const [withdrawn, removed, sold, reserved] = await Promise.all(
      [1, 2, 3, 4].map(() => newCar(app, { seller })),
    );
    expect((await seller.post(`/api/listings/${withdrawn!.id}/withdraw`)).status).toBe(200);
    const { db } = app.database;
    await db.update(listing).set({ status: 'removed' }).where(eq(listing.id, removed!.id));
    await db.update(listing).set({ status: 'sold' }).where(eq(listing.id, sold!.id));
    await db
      .update(listing)
      .set({ status: 'reserved', holdExpiresAt: new Date(Date.now() + 600_000) })
      .where(eq(listing.id, reserved!.id));
    const onSale = await db
      .select({ id: listing.id, updatedAt: listing.updatedAt })
      .from(listing)
      .where(ON_SALE_SQL)
      .orderBy(asc(listing.id));
    expect(onSale.length).toBeGreaterThan(2 * perPage);

    const index = locs(await xmlOf(app, '/sitemap.xml'));
    expect(index[0]).toBe(`${origin}/sitemap-pages.xml`);
    const carSitemaps = index.slice(1);
    expect(carSitemaps).toHaveLength(Math.ceil(onSale.length / perPage));
    expect(carSitemaps[0]).toBe(`${origin}/sitemap-cars.xml`);

    const listed: { id: string; lastmod: string }[] = [];
    for (const loc of carSitemaps) {
      const xml = await xmlOf(app, loc.slice(origin.length));
      const entries = [
        ...xml.matchAll(/<url><loc>([^<]*)<\/loc><lastmod>([^<]*)<\/lastmod><\/url>/g),
      ];
      expect(entries.length).toBeGreaterThan(0);
      expect(entries.length).toBeLessThanOrEqual(perPage);
      expect(entries).toHaveLength(locs(xml).length);
      for (const [, url, lastmod] of entries) {
        expect(url).toMatch(new RegExp(`^${origin}/listing/`));
        listed.push({ id: url!.slice(`${origin}/listing/`.length), lastmod: lastmod! });
      }
    }
    expect(listed).toEqual(
      onSale.map((car) => ({
        id: car.id,
        lastmod: `${car.updatedAt.toISOString().slice(0, 19)}Z`,
      })),
    );
    const ids = listed.map((car) => car.id);
    expect(ids).toContain(reserved!.id);
    for (const gone of [withdrawn, removed, sold]) expect(ids).not.toContain(gone!.id);
  });

  it('lists the search page and each category page among the public pages', async () => {
    const pages = locs(await xmlOf(app, '/sitemap-pages.xml'));
    const categories = await app.database.db
      .select({ id: category.id })
      .from(category)
      .where(inArray(category.slug, ['microbus', 'luxury-car', 'electric-car']));
    expect(pages).toEqual(
      expect.arrayContaining([
        `${origin}/`,
        `${origin}/blog`,
        `${origin}/cars`,
        ...categories.map((c) => `${origin}/category/${c.id}`),
      ]),
    );
  });

  it('answers a malformed page with 400', async () => {
    const response = await app.request('/sitemap-cars.xml?from=not-an-id');
    expect(response.status).toBe(400);
    expect(await codeOf(response)).toBe('validation-failed');
  });
});

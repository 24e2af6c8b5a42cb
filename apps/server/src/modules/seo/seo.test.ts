import { gunzipSync } from 'node:zlib';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { category, listing, ON_SALE_SQL } from '../../db/schema.ts';
import { BackgroundWork } from '../../lib/background-work.ts';
import { codeOf, signInAs } from '../../test/client.ts';
import { newCar } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { createSitemapFiles } from './sitemap-files.ts';

/** A server's log, kept to count its lines by message. */
function keptLog() {
  const lines: { msg?: string }[] = [];
  return {
    logger: {
      level: 'info',
      stream: { write: (line: string) => lines.push(JSON.parse(line) as { msg?: string }) },
    },
    count: (msg: string) => lines.filter((line) => line.msg === msg).length,
  };
}

/** Every `<loc>` of a sitemap or a sitemap index, in order, as a crawler reads it (unescaped). */
const locs = (xml: string) =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

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

/** The cars a car sitemap lists, by id, in order. */
const carIds = (xml: string, origin: string) =>
  locs(xml).map((loc) => loc.slice(`${origin}/listing/`.length));

describe('the sitemap, browsing open', () => {
  let app: TestApp;
  let origin: string;
  const perPage = 4;
  /** The sitemaps' clock runs this far ahead of the real one: a test moves it past the interval. */
  let ahead = 0;
  beforeAll(async () => {
    app = await startTestApp({
      // These tests read every page several times; the limit per address has its own below.
      env: { BROWSE_SIGNED_OUT: 'true', SITEMAP_LIMIT_PER_MINUTE: '1000' },
      carsPerSitemap: perPage,
      sitemapClock: () => Date.now() + ahead,
    });
    origin = `http://localhost:${new URL(app.baseUrl).port}`;
  });

  /** Every car the car sitemaps list, as the index names them. */
  async function listedCars() {
    const ids: string[] = [];
    for (const loc of locs(await xmlOf(app, '/sitemap.xml')).slice(1)) {
      ids.push(...carIds(await xmlOf(app, loc.slice(origin.length)), origin));
    }
    return ids;
  }
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

    const indexXml = await xmlOf(app, '/sitemap.xml');
    expect(indexXml).toContain('&amp;to=');
    const index = locs(indexXml);
    expect(index[0]).toBe(`${origin}/sitemap-pages.xml`);
    const carSitemaps = index.slice(1);
    expect(carSitemaps).toHaveLength(Math.ceil(onSale.length / perPage));
    for (const loc of carSitemaps) {
      expect(loc).toMatch(
        new RegExp(`^${origin}/sitemap-cars\\.xml\\?from=[0-9a-f-]{36}&to=[0-9a-f-]{36}$`),
      );
    }

    const listed: { id: string; lastmod: string }[] = [];
    for (const loc of carSitemaps) {
      const xml = await xmlOf(app, loc.slice(origin.length));
      // The index names both ends of each car sitemap: its first car and its last.
      const range = new URL(loc).searchParams;
      const pageIds = carIds(xml, origin);
      expect([pageIds[0], pageIds.at(-1)]).toEqual([range.get('from'), range.get('to')]);
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

  it('serves the first page without a range, an old link by its first car, and sends any other to the page holding it', async () => {
    const [first, second] = locs(await xmlOf(app, '/sitemap.xml'))
      .slice(1, 3)
      .map((loc) => loc.slice(origin.length));
    const secondIds = carIds(await xmlOf(app, second!), origin);
    // The first page's old address, without a range, and an old link that names only `from`.
    expect(await xmlOf(app, '/sitemap-cars.xml')).toBe(await xmlOf(app, first!));
    expect(await xmlOf(app, `/sitemap-cars.xml?from=${secondIds[0]}`)).toBe(
      await xmlOf(app, second!),
    );
    // A `from` inside the second page, or its first car with a wrong end: never a page of
    // its own, but the address of the stored page that holds it.
    for (const path of [
      `/sitemap-cars.xml?from=${secondIds[1]}`,
      `/sitemap-cars.xml?from=${secondIds[0]}&to=${secondIds[1]}`,
    ]) {
      const response = await app.request(path, { redirect: 'manual' });
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe(second);
      // Where a range is sent changes with the next build: no cache keeps it.
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
    }
  });

  it('sends the stored file gzipped to a client that takes gzip, and as XML to one that does not', async () => {
    const path = locs(await xmlOf(app, '/sitemap.xml'))[1]!.slice(origin.length);
    const zipped = await app.app.inject({ url: path, headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    const plain = await app.app.inject({ url: path, headers: { 'accept-encoding': 'identity' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
    expect(plain.body).toBe(await xmlOf(app, path));
    // gzip's own weight decides when it is named; `*` only when it is not.
    for (const [accept, gzipped] of [
      ['GZip;q=0.5', true],
      ['*', true],
      ['br, *;q=0.1', true],
      ['gzip;q=0, *', false],
      ['*, gzip;q=0', false],
      ['gzip;q=0.000', false],
      ['*;q=0', false],
      ['deflate, br', false],
    ] as const) {
      const response = await app.app.inject({ url: path, headers: { 'accept-encoding': accept } });
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers['content-encoding'], accept).toBe(gzipped ? 'gzip' : undefined);
    }
  });

  it('lists a car listed after the build only once the interval has passed', async () => {
    const before = await listedCars();
    const builtAt = (await app.request('/sitemap.xml')).headers.get('last-modified');
    const car = await newCar(app);
    // Within the interval the build is served as it was: no car sitemap has the new car.
    ahead = 59 * 60_000;
    expect(await listedCars()).toEqual(before);
    expect((await app.request('/sitemap.xml')).headers.get('last-modified')).toBe(builtAt);
    // Past it (SITEMAP_REBUILD_MINUTES, 60), the next request builds them again.
    ahead = 61 * 60_000;
    const after = await listedCars();
    expect(after).toEqual([...before, car.id].sort());
    expect((await app.request('/sitemap.xml')).headers.get('last-modified')).not.toBe(builtAt);
  });

  it('answers a malformed page with 400', async () => {
    const response = await app.request('/sitemap-cars.xml?from=not-an-id');
    expect(response.status).toBe(400);
    expect(await codeOf(response)).toBe('validation-failed');
  });
});

describe('the sitemap limit per address', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { BROWSE_SIGNED_OUT: 'true', SITEMAP_LIMIT_PER_MINUTE: '3' },
      carsPerSitemap: 4,
    });
  });
  afterAll(() => app.close());

  const get = (url: string, remoteAddress: string) => app.app.inject({ url, remoteAddress });

  it("answers 429 with Retry-After past an address's sitemaps a minute, not to another address", async () => {
    const crawler = '203.0.113.7';
    for (const url of ['/sitemap.xml', '/sitemap-pages.xml', '/sitemap-cars.xml']) {
      expect((await get(url, crawler)).statusCode, url).toBe(200);
    }
    for (const url of ['/sitemap.xml', '/sitemap-cars.xml', '/sitemap-pages.xml']) {
      const refused = await get(url, crawler);
      expect(refused.statusCode, url).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      const { error } = refused.json() as { error: { code: string; message: string } };
      expect(error.code).toBe('too-many-requests');
      expect(error.message).toMatch(
        /^Too many sitemap requests from your address\. Please try again in (\d+ seconds?|1 minute)\.$/,
      );
    }
    expect((await get('/sitemap.xml', '198.51.100.9')).statusCode).toBe(200);
    // robots.txt is not a sitemap: it costs nothing and is not counted.
    expect((await get('/robots.txt', crawler)).statusCode).toBe(200);
  });
});

describe('the sitemaps between builds', () => {
  let app: TestApp;
  const origin = 'https://cars.example.com';
  const log = keptLog();
  /** The sitemaps' clock, which only the tests move. */
  let clock = Date.now();
  const HOUR = 3_600_000;
  beforeAll(async () => {
    app = await startTestApp({
      env: { BROWSE_SIGNED_OUT: 'true', PUBLIC_URL: origin, SITEMAP_LIMIT_PER_MINUTE: '1000' },
      carsPerSitemap: 4,
      sitemapClock: () => clock,
      logger: log.logger,
    });
  });
  afterAll(() => app.close());

  /** Every write of a build fails, as with a full disk, until `mend()`. */
  async function breakBuilds() {
    await app.database.db.execute(sql`
      create function fail_sitemap_write() returns trigger language plpgsql as $$
      begin raise exception 'no space left on device'; end $$`);
    await app.database.db.execute(sql`
      create trigger fail_sitemap_write before insert on sitemap_file
      for each row execute function fail_sitemap_write()`);
  }
  const mend = () =>
    app.database.db.execute(sql`drop function if exists fail_sitemap_write cascade`);
  afterEach(mend);
  /** Builds tried since the test began: failed and done. */
  let failedBefore = 0;
  let builtBefore = 0;
  beforeEach(() => {
    failedBefore = log.count('building the sitemaps failed');
    builtBefore = log.count('sitemaps built');
  });
  const failed = () => log.count('building the sitemaps failed') - failedBefore;
  const built = () => log.count('sitemaps built') - builtBefore;

  it('answers 503 with Retry-After while the first build fails, and tries again only after a pause', async () => {
    await breakBuilds();
    const refused = await app.app.inject({ url: '/sitemap.xml' });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(failed()).toBe(1);
    // Within the pause the next request builds nothing.
    expect((await app.app.inject({ url: '/sitemap.xml' })).statusCode).toBe(503);
    expect(failed()).toBe(1);
    await mend();
    clock += 5_000;
    expect((await app.app.inject({ url: '/sitemap.xml' })).statusCode).toBe(200);
    expect(built()).toBe(1);
  });

  it('serves the last build while a rebuild fails, and tries again only after a pause', async () => {
    clock += HOUR;
    const last = await app.app.inject({ url: '/sitemap.xml' });
    const builtAt = last.headers['last-modified'];
    const page = locs(last.body)[1]!.slice(origin.length);
    await breakBuilds();
    clock += HOUR;
    for (const url of ['/sitemap.xml', page, '/sitemap.xml']) {
      const served = await app.app.inject({ url });
      expect(served.statusCode, url).toBe(200);
      expect(served.headers['last-modified'], url).toBe(builtAt);
    }
    // One try, then none within the pause; the next after it.
    expect(failed()).toBe(1);
    clock += 5_000;
    expect((await app.app.inject({ url: '/sitemap.xml' })).headers['last-modified']).toBe(builtAt);
    expect(failed()).toBe(2);
    await mend();
    clock += 5_000;
    const rebuilt = await app.app.inject({ url: '/sitemap.xml' });
    expect(rebuilt.statusCode).toBe(200);
    expect(rebuilt.headers['last-modified']).not.toBe(builtAt);
    expect(built()).toBe(2);
  });

  it("never serves a newer build's page under an older build's range", async () => {
    clock += HOUR;
    const index = locs(await xmlOf(app, '/sitemap.xml')).slice(1);
    const older = index[1]!.slice(origin.length);
    // Another process builds again after the first car on sale left: every later page's range
    // moves by one car, and this process's copy is not yet past its interval.
    const first = new URL(index[0]!).searchParams.get('from')!;
    await app.database.db.update(listing).set({ status: 'removed' }).where(eq(listing.id, first));
    const rival = createSitemapFiles({
      db: app.database.db,
      origin: () => origin,
      perPage: 4,
      rebuildMs: HOUR,
      now: () => clock + HOUR,
      background: new BackgroundWork({ error: () => {}, debug: () => {} }),
      log: { info: () => {}, error: () => {} },
    });
    const { pages } = await rival.current();

    // This process finds the older build's page gone and reads the newer build: its page of
    // that name holds other cars, so the range is sent to the page now holding its first car.
    const response = await app.request(older, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const from = new URL(older, origin).searchParams.get('from')!;
    const holding = pages.findLast((page) => page.from <= from)!;
    const location = response.headers.get('location')!;
    expect(location).toBe(`/sitemap-cars.xml?from=${holding.from}&to=${holding.to}`);
    const ids = carIds(await xmlOf(app, location), origin);
    expect([ids[0], ids.at(-1)]).toEqual([holding.from, holding.to]);
  });
});

/**
 * Two servers on one PostgreSQL database, as behind a load balancer, with one public address.
 * Their clocks differ by ten minutes, so a build's date tells which of them built it.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the sitemaps, two servers', () => {
  let first: TestApp;
  let second: TestApp;
  const env = { BROWSE_SIGNED_OUT: 'true', PUBLIC_URL: 'https://cars.example.com' };
  /** Both servers' logs. */
  const log = keptLog();
  beforeAll(async () => {
    first = await startTestApp({ env, carsPerSitemap: 4, logger: log.logger });
    second = await startTestApp({
      env,
      carsPerSitemap: 4,
      sitemapClock: () => Date.now() + 600_000,
      reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl },
      logger: log.logger,
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('build once between them, and each serves that build', async () => {
    // Asked at once, before anything is built: one builds, the other waits for it.
    const [fromFirst, fromSecond] = await Promise.all([
      first.request('/sitemap.xml'),
      second.request('/sitemap.xml'),
    ]);
    expect([fromFirst.status, fromSecond.status]).toEqual([200, 200]);
    const builtAt = fromFirst.headers.get('last-modified');
    expect(fromSecond.headers.get('last-modified')).toBe(builtAt);
    const index = await fromFirst.text();
    expect(await fromSecond.text()).toBe(index);
    expect(log.count('sitemaps built')).toBe(1);
    // Each serves every car sitemap of that build, from its own copy.
    for (const loc of locs(index).slice(1)) {
      const path = loc.slice('https://cars.example.com'.length);
      const [a, b] = await Promise.all([first.request(path), second.request(path)]);
      expect(a.headers.get('last-modified')).toBe(builtAt);
      expect(await b.text()).toBe(await a.text());
    }
    expect(log.count('sitemaps built')).toBe(1);
  });
});

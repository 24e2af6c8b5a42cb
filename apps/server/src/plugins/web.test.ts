import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListingDetail } from '@carmarket/shared';
import { listing, session, user } from '../db/schema.ts';
import { rawRequest, register, signInAs } from '../test/client.ts';
import { demoListings, newCar } from '../test/fixtures.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

/** The web app's server build, which `npm run build` writes (the test command builds first). */
const RENDERER_DIR = path.resolve(import.meta.dirname, '../../../web/dist-ssr');

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
  // Templates of the pages rendered per person, with the marks the build writes.
  await fs.mkdir(path.join(dir, 'personal'), { recursive: true });
  await fs.writeFile(
    path.join(dir, 'personal/page.html'),
    '<!doctype html><html><head><title>%PAGE_TITLE%</title><meta name="description" content="%PAGE_DESCRIPTION%"></head><body><div id="root">%PAGE_HTML%</div><script type="application/json" id="page-data">%PAGE_DATA%</script></body></html>',
  );
  await fs.writeFile(
    path.join(dir, 'personal-pages.json'),
    JSON.stringify({
      '/cars': 'personal/page.html',
      '/category/:id': 'personal/page.html',
      '/listing/:id': 'personal/page.html',
      '/dashboard': 'personal/page.html',
    }),
  );
}

/** The page's own data block, as the browser's entry reads it. */
function pageData(html: string): [unknown[], unknown][] {
  const found = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html);
  if (!found) throw new Error('the page has no data block');
  return JSON.parse(found[1]!) as [unknown[], unknown][];
}

/** The content of the page's `<meta>` with this name or property. */
function metaContent(html: string, key: string): string | undefined {
  const found = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(html);
  return found?.[1];
}

/** The page's JSON-LD block, parsed. */
function structuredData(html: string): Record<string, unknown> {
  const found = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  if (!found) throw new Error('the page has no JSON-LD block');
  return JSON.parse(found[1]!) as Record<string, unknown>;
}

describe('serving the web app', () => {
  let app: TestApp;
  beforeAll(async () => {
    const probe = await startTestApp();
    await writeDist(path.join(probe.dataDir, 'web-dist'));
    if (!(await fs.stat(path.join(RENDERER_DIR, 'entry-server.js')).catch(() => null))) {
      throw new Error(`${RENDERER_DIR} is missing: build the web app first (npm run build)`);
    }
    await fs.symlink(RENDERER_DIR, path.join(probe.dataDir, 'dist-ssr'));
    await probe.close();
    app = await startTestApp({ reuse: { dataDir: probe.dataDir, databaseUrl: probe.databaseUrl } });
  });
  afterAll(() => app.close());
  /** The site's origin without PUBLIC_URL: what canonical and shared links start with. */
  const site = () => `http://localhost:${new URL(app.baseUrl).port}`;

  it('serves prerendered pages at their clean URLs, revalidated on every visit', async () => {
    for (const [url, marker, canonical] of [
      ['/', 'home', '/'],
      ['/blog', 'blog', '/blog'],
      ['/blog/', 'blog', '/blog'],
    ] as const) {
      const response = await app.request(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const html = await response.text();
      expect(html).toContain(`<div id="root">${marker}</div>`);
      expect(html).toContain(`<link rel="canonical" href="${site()}${canonical}">\n  </head>`);
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

  it('renders a car page and the search for the person signed in, their data beside the markup', async () => {
    // A car dearer than any demo car (so not the first of the cheapest-first search below) gets a
    // name that tries to end the title and a description that tries to end the data block.
    const car = await newCar(app, { repriceCents: 99_000_000_00 });
    const name = 'Van "Q" & </title><script>alert(2)</script>';
    const description = 'Clean car. </script><script>alert(1)</script><!-- end';
    await app.database.db.update(listing).set({ name, description }).where(eq(listing.id, car.id));
    const buyer = await signInAs(app, 'buyer@demo.local');

    const page = await buyer.get(`/listing/${car.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-cache');
    expect(page.headers.get('vary')).toMatch(/cookie/i);
    const html = await page.text();
    // Shown as text in the title and the markup, kept whole in the data, never as a tag.
    const shownName = 'Van &quot;Q&quot; &amp; &lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt;';
    expect(html).toContain(`<title>2021 ${shownName} - $99,000,000 - CarMarket</title>`);
    expect(metaContent(html, 'og:title')).toBe(`2021 ${shownName} - $99,000,000`);
    expect(metaContent(html, 'description')).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
    expect(html).not.toContain('<script>alert(');
    // The structured data keeps the name whole, with no "<" that could end its block.
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]!;
    expect(ld).not.toContain('<');
    expect(structuredData(html)).toMatchObject({ name, offers: { price: '99000000.00' } });
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('id="page-data"'));
    expect(root).toContain(`<h1 id="listing-title"`);
    expect(root).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
    const data = new Map(pageData(html).map(([key, value]) => [JSON.stringify(key), value]));
    expect(data.get(JSON.stringify(['listing', car.id]))).toMatchObject({
      _id: car.id,
      name,
      description,
    });
    const session = data.get(JSON.stringify(['auth', 'session'])) as Record<
      string,
      Record<string, unknown>
    >;
    expect(session.user).toMatchObject({ email: 'buyer@demo.local', roles: ['Buyer'] });
    // What the app reads of the session, and not its token.
    expect(Object.keys(session.session!).sort()).toEqual(['expiresAt', 'id']);
    expect(html).not.toMatch(/"token"/);

    const search = await buyer.get('/cars?sort=price_asc');
    const searchHtml = await search.text();
    const [results] = pageData(searchHtml).filter(([key]) => key[1] === 'search');
    const first = (results![1] as { pages: { items: { name: string }[] }[] }).pages[0]!.items[0]!;
    expect(results![0]).toEqual(['listing', 'search', 'sort=price_asc']);
    expect(searchHtml).toContain(`alt="Photo of the ${first.name}"`);
    expect(searchHtml).toContain('<title>Used cars for sale - CarMarket</title>');
    expect(searchHtml).toContain(`<link rel="canonical" href="${site()}/cars">`);
  });

  it("renders the dashboard's home for the person signed in, with their figures and no one else's", async () => {
    const buyer = await signInAs(app, 'buyer@demo.local');
    const page = await buyer.get('/dashboard');
    expect(page.status).toBe(200);
    // One address, each person's own page: no cache may keep one for another cookie.
    expect(page.headers.get('cache-control')).toBe('private, no-cache');
    expect(page.headers.get('vary')?.toLowerCase()).toContain('cookie');
    const html = await page.text();
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('id="page-data"'));
    // The page's first lines, and the figures under the key the page reads them by.
    expect(root).toContain('Welcome, ');
    expect(root).toContain('Add selling to your account');
    expect(root).toContain('Total spent');
    const data = new Map(pageData(html).map(([key, value]) => [JSON.stringify(key), value]));
    const buyerStats = data.get(JSON.stringify(['stats', 'Buyer']));
    expect(buyerStats).toMatchObject({ role: 'Buyer' });

    // The seller's page carries the seller's figures, and neither page the other's.
    const seller = await signInAs(app, 'seller@demo.local');
    const sellerPage = await seller.get('/dashboard');
    expect(sellerPage.status).toBe(200);
    expect(sellerPage.headers.get('cache-control')).toBe('private, no-cache');
    expect(sellerPage.headers.get('vary')?.toLowerCase()).toContain('cookie');
    const sellerHtml = await sellerPage.text();
    const sellerData = new Map(
      pageData(sellerHtml).map(([key, value]) => [JSON.stringify(key), value]),
    );
    const sellerStats = sellerData.get(JSON.stringify(['stats', 'Seller']));
    expect(sellerStats).toMatchObject({ role: 'Seller' });
    expect(sellerData.has(JSON.stringify(['stats', 'Buyer']))).toBe(false);
    expect(data.has(JSON.stringify(['stats', 'Seller']))).toBe(false);
    expect(sellerHtml).not.toContain(JSON.stringify(buyerStats));
    expect(html).not.toContain(JSON.stringify(sellerStats));
    // Its other pages are still drawn by the browser.
    const orders = await (await buyer.get('/dashboard/orders')).text();
    expect(orders).toContain('<div id="root"></div>');
  });

  it('gives a car page a link preview and structured data naming its price and state', async () => {
    const car = await newCar(app, { repriceCents: 1_450_000 });
    await app.database.db
      .update(listing)
      .set({
        name: 'Toyota Corolla LE',
        make: 'Toyota',
        model: 'Corolla',
        year: 2019,
        mileageKm: 38_400,
        vin: '2T1BURHE0KC123456',
        bodyType: 'Sedan',
        fuel: 'petrol',
        transmission: 'automatic',
        colour: 'Silver',
        description: 'One owner, full service history and new tyres. Garaged, never smoked in.',
      })
      .where(eq(listing.id, car.id));
    const buyer = await signInAs(app, 'buyer@demo.local');
    const html = await (await buyer.get(`/listing/${car.id}`)).text();
    const url = `${site()}/listing/${car.id}`;

    expect(html).toContain('<title>2019 Toyota Corolla LE - $14,500 - CarMarket</title>');
    const description = metaContent(html, 'description');
    expect(description).toMatch(
      /^2019 Toyota Corolla LE with 23,861 mi, for sale in Fresno, CA\. One owner/,
    );
    expect(description).toContain('One owner, full service history');
    expect(html).toContain(`<link rel="canonical" href="${url}">`);
    expect(metaContent(html, 'og:type')).toBe('product');
    expect(metaContent(html, 'og:site_name')).toBe('CarMarket');
    expect(metaContent(html, 'og:title')).toBe('2019 Toyota Corolla LE - $14,500');
    expect(metaContent(html, 'og:description')).toBe(description);
    expect(metaContent(html, 'og:url')).toBe(url);
    const shown = (await (await buyer.get(`/api/listings/${car.id}`)).json()) as ListingDetail;
    const [photo] = shown.images;
    expect(metaContent(html, 'og:image')).toBe(`${site()}${photo!.url}`);
    expect(metaContent(html, 'product:price:amount')).toBe('14500.00');
    expect(metaContent(html, 'product:price:currency')).toBe('USD');
    expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaContent(html, 'twitter:title')).toBe('2019 Toyota Corolla LE - $14,500');
    expect(metaContent(html, 'twitter:image')).toBe(`${site()}${photo!.url}`);
    expect(metaContent(html, 'twitter:image:alt')).toBe('Photo of the Toyota Corolla LE');

    expect(structuredData(html)).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Car',
      name: 'Toyota Corolla LE',
      brand: { '@type': 'Brand', name: 'Toyota' },
      model: 'Corolla',
      vehicleModelDate: '2019',
      mileageFromOdometer: { '@type': 'QuantitativeValue', value: 23_861, unitCode: 'SMI' },
      vehicleIdentificationNumber: '2T1BURHE0KC123456',
      bodyType: 'Sedan',
      fuelType: 'Petrol',
      vehicleTransmission: 'Automatic',
      color: 'Silver',
      image: [`${site()}${photo!.url}`],
      offers: {
        '@type': 'Offer',
        price: '14500.00',
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
        url,
        seller: { name: expect.any(String) },
      },
    });

    // Held for a buyer paying now, then sold: what search engines are told follows the car.
    const states = [
      [
        { status: 'reserved', holdExpiresAt: new Date(Date.now() + 600_000) },
        'LimitedAvailability',
      ],
      [{ status: 'sold', holdExpiresAt: null }, 'SoldOut'],
    ] as const;
    expect(metaContent(html, 'robots')).toBeUndefined();
    for (const [state, availability] of states) {
      await app.database.db.update(listing).set(state).where(eq(listing.id, car.id));
      const page = await (await buyer.get(`/listing/${car.id}`)).text();
      const { offers } = structuredData(page) as { offers: { availability: string } };
      expect(offers.availability).toBe(`https://schema.org/${availability}`);
      // A sold car's page says so (issue 32) and is not one for search engines to list.
      expect(metaContent(page, 'robots')).toBe(state.status === 'sold' ? 'noindex' : undefined);
    }
    const sold = await (await buyer.get(`/listing/${car.id}`)).text();
    expect(sold).toContain('<title>2019 Toyota Corolla LE - $14,500 - CarMarket</title>');
    expect(metaContent(sold, 'description')).toMatch(
      /^2019 Toyota Corolla LE with 23,861 mi, sold in/,
    );
    expect(sold).toContain('This car was sold');
  });

  it('names a search by the kind of car and points it at one address', async () => {
    const buyer = await signInAs(app, 'buyer@demo.local');
    const html = await (
      await buyer.get(
        '/cars?sort=price_asc&model=Corolla&q=clean&make=Toyota&make=Toyota&priceMax=9000000&utm_source=chat',
      )
    ).text();
    expect(html).toContain('<title>Used Toyota Corolla for sale - CarMarket</title>');
    expect(html).toContain(
      `<link rel="canonical" href="${site()}/cars?make=Toyota&amp;model=Corolla">`,
    );
    expect(metaContent(html, 'og:url')).toBe(`${site()}/cars?make=Toyota&amp;model=Corolla`);
  });

  it('renders a category page with its header and the search within it', async () => {
    const [car] = await demoListings(app);
    const buyer = await signInAs(app, 'buyer@demo.local');
    const category = (await (
      await buyer.get(`/api/category/${car!.categoryId}?limit=1`)
    ).json()) as { name: string };
    const html = await (await buyer.get(`/category/${car!.categoryId}`)).text();
    expect(html).toContain(`<title>${category.name} - used cars for sale - CarMarket</title>`);
    expect(html).toContain(`<link rel="canonical" href="${site()}/category/${car!.categoryId}">`);
    const keys = pageData(html).map(([key]) => key);
    expect(keys).toContainEqual(['category', car!.categoryId]);
    expect(keys).toContainEqual(['listing', 'search', `category=${car!.categoryId}`]);
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('id="page-data"'));
    expect(root).toMatch(new RegExp(`<h1[^>]*>${category.name}</h1>`));
    expect(root).toContain('data-testid="listing-card"');
  });

  it("renews the person's cookie when the page is what extends their session", async () => {
    const person = await register(app);
    const [mine] = await app.database.db
      .select({ id: session.id })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      .where(eq(user.email, person.account.email));
    // A session a day old is due for its daily extension.
    await app.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() + 6 * 24 * 3600 * 1000) })
      .where(eq(session.id, mine!.id));
    const page = await person.get('/cars');
    expect(await page.text()).toContain('id="page-data"');
    expect(page.headers.getSetCookie().join('\n')).toMatch(
      /session_token=[^;]+;.*Max-Age=60480\d/i,
    );
  });

  it('sends the app shell to people who are not signed in, or no longer', async () => {
    const [car] = await demoListings(app);
    const strangers = [
      await app.request(`/listing/${car!.id}`),
      await app.request('/cars', { headers: { cookie: 'better-auth.session_token=forged.value' } }),
    ];
    const person = await register(app);
    expect((await person.post('/api/auth/sign-out')).status).toBe(200);
    // The cookie from before signing out, sent by hand.
    const signedOut = await signInAs(app, person.account.email, person.account.password);
    const cookie = signedOut.cookieHeader();
    expect((await signedOut.post('/api/auth/sign-out')).status).toBe(200);
    const ended = await app.request('/cars', { headers: { cookie } });
    // The ended session's cookie is cleared on the way: that shell is for this browser only.
    expect(ended.headers.getSetCookie().join('\n')).toMatch(/session_token=;.*Max-Age=0/i);
    expect(ended.headers.get('cache-control')).toBe('private, no-cache');
    expect(strangers[0]!.headers.get('cache-control')).toBe('no-cache');
    strangers.push(ended);
    for (const response of strangers) {
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toContain('page-data');
    }
  });
});

describe('the pages rendered for visitors where browsing is open (BROWSE_SIGNED_OUT)', () => {
  let app: TestApp;
  beforeAll(async () => {
    const probe = await startTestApp();
    await writeDist(path.join(probe.dataDir, 'web-dist'));
    await fs.symlink(RENDERER_DIR, path.join(probe.dataDir, 'dist-ssr'));
    await probe.close();
    app = await startTestApp({
      reuse: { dataDir: probe.dataDir, databaseUrl: probe.databaseUrl },
      // Behind a "proxy", so a test can render from addresses of its own.
      env: {
        BROWSE_SIGNED_OUT: 'true',
        TRUST_PROXY: 'true',
        ANONYMOUS_SEARCH_LIMIT_PER_MINUTE: '3',
      },
    });
  });
  afterAll(() => app.close());

  it('renders a car page for a visitor without a cookie, with no session in its data', async () => {
    const [car] = await demoListings(app);
    const page = await app.request(`/listing/${car!.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-cache');
    expect(page.headers.get('vary')).toMatch(/cookie/i);
    const html = await page.text();
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('id="page-data"'));
    expect(root).toContain('<h1 id="listing-title"');
    expect(root).toContain(`>${car!.name}</h1>`);
    // Book now and Ask the seller, asking the visitor to sign in first.
    expect(root).toContain('>Book now</button>');
    expect(root).toContain('>Ask the seller</button>');
    const data = new Map(pageData(html).map(([key, value]) => [JSON.stringify(key), value]));
    expect(data.get(JSON.stringify(['auth', 'session']))).toBeNull();
    expect(data.get(JSON.stringify(['auth', 'sign-in-options']))).toMatchObject({
      browseSignedOut: true,
    });
    expect(data.get(JSON.stringify(['listing', car!.id]))).toMatchObject({ _id: car!.id });
  });

  it("gives a visitor the car page's link preview and structured data", async () => {
    const [car] = await demoListings(app);
    const html = await (await app.request(`/listing/${car!.id}`)).text();
    const url = `http://localhost:${new URL(app.baseUrl).port}/listing/${car!.id}`;
    expect(html).toContain(`<link rel="canonical" href="${url}">`);
    expect(metaContent(html, 'og:url')).toBe(url);
    expect(metaContent(html, 'og:image')).toMatch(/^http:\/\/localhost:\d+\/media\//);
    expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
    expect(structuredData(html)).toMatchObject({
      '@type': 'Car',
      name: car!.name,
      offers: {
        price: (car!.repriceCents / 100).toFixed(2),
        availability: 'https://schema.org/InStock',
        url,
      },
    });
  });

  it('never renders the dashboard for a visitor: the shell sends them to sign in', async () => {
    const html = await (await app.request('/dashboard')).text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('page-data');
  });

  it('renders the search for a visitor too', async () => {
    const html = await (await app.request('/cars?sort=price_asc')).text();
    expect(html).toContain('data-testid="listing-card"');
    expect(pageData(html).map(([key]) => key)).toContainEqual([
      'listing',
      'search',
      'sort=price_asc',
    ]);
  });

  it("counts a visitor's rendered searches against their own address, not everyone's", async () => {
    const searchFrom = async (address: string) =>
      (await app.request('/cars', { headers: { 'x-forwarded-for': address } })).text();
    for (let search = 0; search < 3; search += 1) {
      expect(await searchFrom('192.0.2.10')).toContain('data-testid="listing-card"');
    }
    // That address's minute is spent: its page comes without results (the browser asks later)...
    expect(await searchFrom('192.0.2.10')).not.toContain('data-testid="listing-card"');
    // ...and another visitor's page still renders with them.
    expect(await searchFrom('192.0.2.11')).toContain('data-testid="listing-card"');
  });
});

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryDetailSchema, CategoryListSchema, type CategorySummary } from '@carmarket/shared';
import { category, listing, user } from '../../db/schema.ts';
import { signInAs } from '../../test/client.ts';
import { newCar } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { jpegWithExif, uploadBytes } from '../../test/uploads.ts';

describe('GET /api/category', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  async function categories(): Promise<CategorySummary[]> {
    const response = await app.request('/api/category');
    expect(response.status).toBe(200);
    return CategoryListSchema.parse(await response.json());
  }

  it('lists the three seeded categories in order, each with six available cars', async () => {
    const list = await categories();
    expect(list.map((c) => c.name)).toEqual(['Microbus', 'Luxury car', 'Electric car']);
    expect(list.map((c) => c.count)).toEqual([6, 6, 6]);
    for (const category of list) {
      expect(category._id).toMatch(/^[0-9a-f-]{36}$/);
      expect(category.icon).toMatch(/^\/media\/[0-9a-f-]{36}\.webp$/);
    }
  });

  it('serves each icon as a cached WebP image that browsers must not sniff', async () => {
    const [first] = await categories();
    const response = await app.request(first!.icon);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toContain('immutable');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString()).toBe('WEBP');
  });

  it('refuses media keys that try to leave the storage folder', async () => {
    for (const key of ['..%2F..%2Fetc%2Fpasswd', '%2e%2e%2fdb', 'x.svg', 'nope.webp']) {
      const response = await app.request(`/media/${key}`);
      expect(response.status).toBe(404);
    }
  });

  it('counts only cars that can be booked now', async () => {
    const sold = await newCar(app, { category: 'Microbus' });
    const withdrawn = await newCar(app, { category: 'Microbus' });
    const countOf = async (id: string) => (await categories()).find((c) => c._id === id)?.count;
    expect(await countOf(sold.categoryId)).toBe(8);
    await app.database.db.update(listing).set({ status: 'sold' }).where(eq(listing.id, sold.id));
    await app.database.db
      .update(listing)
      .set({ status: 'withdrawn' })
      .where(eq(listing.id, withdrawn.id));
    const after = await categories();
    expect(after.find((c) => c._id === sold.categoryId)?.count).toBe(6);
    expect(after.filter((c) => c._id !== sold.categoryId).map((c) => c.count)).toEqual([6, 6]);
  });
});

describe('GET /api/category/:id', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('asks a signed-out visitor to sign in', async () => {
    const [category] = (await (await app.request('/api/category')).json()) as CategorySummary[];
    const response = await app.request(`/api/category/${category!._id}`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: 'unauthenticated', message: expect.any(String) },
    });
  });

  it('shows a signed-in user the cars that can be booked, newest first, with their seller', async () => {
    const buyer = await signInAs(app, 'buyer@demo.local');
    const [category] = (await (await app.request('/api/category')).json()) as CategorySummary[];
    const car = await newCar(app, { category: 'Microbus' });
    const response = await buyer.get(`/api/category/${category!._id}`);
    expect(response.status).toBe(200);
    const detail = CategoryDetailSchema.parse(await response.json());
    expect(detail).toMatchObject({ _id: category!._id, name: 'Microbus' });
    // The six demo cars and the new one, which comes first.
    expect(detail.listings).toHaveLength(7);
    const first = detail.listings[0]!;
    expect(first._id).toBe(car.id);
    expect(first).toMatchObject({
      categoryId: category!._id,
      seller: 'Riverside Motors',
      // The demo seller is seeded verified.
      sellerVerified: true,
      currency: 'USD',
      status: 'available',
    });
    expect(first.img).toMatch(/^\/media\//);
    expect(Number.isInteger(first.reprice) && first.reprice > 0).toBe(true);
    const times = detail.listings.map((l) => Date.parse(l.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // A sold car leaves the page; a seller no longer verified loses the badge.
    await app.database.db.update(listing).set({ status: 'sold' }).where(eq(listing.id, first._id));
    await app.database.db
      .update(user)
      .set({ verified: false })
      .where(eq(user.email, 'seller@demo.local'));
    const after = CategoryDetailSchema.parse(
      await (await buyer.get(`/api/category/${category!._id}`)).json(),
    );
    expect(after.listings.map((l) => l._id)).not.toContain(first._id);
    expect(after.listings.some((l) => l.sellerVerified)).toBe(false);
  });

  it('answers an unknown category with 404', async () => {
    const buyer = await signInAs(app, 'buyer@demo.local');
    const response = await buyer.get('/api/category/0d7c0a1e-2a52-4c51-9b0b-7f6f2a1d9e10');
    expect(response.status).toBe(404);
  });

  it.each(['abc', '123', 'not-a-uuid-at-all', "1'; drop table category; --", 'x'.repeat(300)])(
    'answers a malformed id (%s) with a 4xx naming the field',
    async (id) => {
      const buyer = await signInAs(app, 'buyer@demo.local');
      const response = await buyer.get(`/api/category/${encodeURIComponent(id)}`);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      const body = (await response.json()) as { error: { code: string; field?: string } };
      expect(['validation-failed', 'not-found', 'bad-request']).toContain(body.error.code);
      if (body.error.code === 'validation-failed') expect(body.error.field).toBe('id');
    },
  );
});

describe('category counts at scale', () => {
  it('estimates a category of many cars from a sample, and counts small ones exactly', async () => {
    const app = await startTestApp();
    try {
      const db = app.database.db;
      const [microbus] = await db.select().from(category).where(eq(category.name, 'Microbus'));
      // 30,000 more microbuses, a copy of a demo car each; ANALYZE tells the planner.
      await db.execute(sql`
        insert into listing (category_id, seller_id, seller_name, name, description, condition,
          location, year, reprice_cents, orprice_cents, currency, make, model)
        select category_id, seller_id, seller_name, name, description, condition, location, year,
          reprice_cents, orprice_cents, currency, make, model
        from listing, generate_series(1, 30000)
        where id = (select id from listing where category_id = ${microbus!.id} limit 1)`);
      await db.execute(sql`analyze listing`);
      const list = (await (await app.request('/api/category')).json()) as CategorySummary[];
      const counts = Object.fromEntries(list.map((c) => [c.name, c.count]));
      expect(counts['Microbus']).toBeGreaterThan(30_006 * 0.8);
      expect(counts['Microbus']).toBeLessThan(30_006 * 1.2);
      expect(counts['Luxury car']).toBe(6);
      expect(counts['Electric car']).toBe(6);
    } finally {
      await app.close();
    }
  });
});

describe('seeding', () => {
  it('seeds an empty database once and keeps data across restarts', async () => {
    const first = await startTestApp({ freshInstall: true });
    const reuse = { dataDir: first.dataDir, databaseUrl: first.databaseUrl };
    await first.close();
    // PGlite in memory cannot be restarted; the restart scenario uses a directory instead.
    const again = await startTestApp({ reuse });
    const seeded = (await (await again.request('/api/category')).json()) as CategorySummary[];
    await again.close();
    const restarted = await startTestApp({ reuse });
    const after = (await (await restarted.request('/api/category')).json()) as CategorySummary[];
    await restarted.close();
    expect(after).toEqual(seeded);
    expect(after.map((c) => c.count)).toEqual([6, 6, 6]);
  });

  it("lets the demo seller upload photos on a fresh install: the demo cars' photos are not today's uploads", async () => {
    // Fewer a day than the demo cars have photos, as the wider demo set has more than 60.
    const app = await startTestApp({ freshInstall: true, env: { UPLOAD_QUOTA_PER_DAY: '5' } });
    try {
      const seller = await signInAs(app, 'seller@demo.local');
      const uploaded = await uploadBytes(seller, await jpegWithExif(640, 480));
      expect(uploaded.status, await uploaded.text()).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('seeds categories without demo cars when SEED_DEMO=false', async () => {
    const app = await startTestApp({ env: { SEED_DEMO: 'false' } });
    const list = (await (await app.request('/api/category')).json()) as CategorySummary[];
    await app.close();
    expect(list.map((c) => [c.name, c.count])).toEqual([
      ['Microbus', 0],
      ['Luxury car', 0],
      ['Electric car', 0],
    ]);
  });
});

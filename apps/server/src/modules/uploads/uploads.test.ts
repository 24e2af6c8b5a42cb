import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { upload, user } from '../../db/schema.ts';
import { codeOf, register, signInAs, TestClient } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { jpegWithExif, uploadBytes } from '../../test/uploads.ts';

describe('POST /api/uploads', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env: { UPLOAD_QUOTA_PER_DAY: '12' } });
    seller = await register(app, { role: 'Seller' });
  });
  afterAll(() => app.close());

  it('re-encodes an accepted JPEG to WebP without its EXIF, with a thumbnail, served safely', async () => {
    const original = await jpegWithExif(2400, 1600);
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const response = await uploadBytes(seller, original);
    expect(response.status).toBe(200);
    const { success, data } = (await response.json()) as {
      success: boolean;
      data: { url: string; thumbUrl: string; width: number; height: number };
    };
    expect(success).toBe(true);
    expect(data.url).toMatch(/^\/media\/[0-9a-f-]{36}\.webp$/);
    expect(data).toMatchObject({ width: 1920, height: 1280 });

    const served = await app.request(data.url);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toContain('immutable');
    const bytes = Buffer.from(await served.arrayBuffer());
    const metadata = await sharp(bytes).metadata();
    expect(metadata.format).toBe('webp');
    expect(metadata.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('Secret Owner'))).toBe(false);
    expect(bytes.includes(Buffer.from('Spy 3000'))).toBe(false);
    const thumb = await sharp(
      Buffer.from(await (await app.request(data.thumbUrl)).arrayBuffer()),
    ).metadata();
    expect(thumb.width).toBe(480);
  });

  it.each([
    [
      'png',
      () =>
        sharp({ create: { width: 300, height: 200, channels: 4, background: '#fff' } })
          .png()
          .toBuffer(),
      'a.png',
    ],
    [
      'webp',
      () =>
        sharp({ create: { width: 300, height: 200, channels: 3, background: '#0a0' } })
          .webp()
          .toBuffer(),
      'a.webp',
    ],
  ])('accepts %s', async (_kind, make, name) => {
    const response = await uploadBytes(seller, await make(), name, 'application/octet-stream');
    expect(response.status).toBe(200);
  });

  it('refuses a script named .jpg, whatever type it declares', async () => {
    const script = Buffer.from('#!/bin/sh\nrm -rf /\n<script>alert(1)</script>');
    const response = await uploadBytes(seller, script, 'holiday.jpg', 'image/jpeg');
    expect(response.status).toBe(415);
    expect(await codeOf(response)).toBe('unsupported-media-type');
  });

  it('refuses an SVG with a script', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
    );
    const response = await uploadBytes(seller, svg, 'car.svg', 'image/svg+xml');
    expect(response.status).toBe(415);
  });

  it('refuses a JPEG header glued to garbage', async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);
    expect((await uploadBytes(seller, fake)).status).toBe(415);
  });

  it('refuses an image with too many pixels (a decompression bomb)', async () => {
    // 10000 x 10000 of one colour: a few hundred KB as PNG, 100 megapixels decoded.
    const bomb = await sharp({
      create: { width: 10_000, height: 10_000, channels: 3, background: '#000' },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(10 * 1024 * 1024);
    const response = await uploadBytes(seller, bomb, 'bomb.png', 'image/png');
    expect([413, 415]).toContain(response.status);
  });

  it('refuses a file over 10 MB', async () => {
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(11 * 1024 * 1024, 1)]);
    const response = await uploadBytes(seller, big);
    expect(response.status).toBe(413);
    expect(await codeOf(response)).toBe('payload-too-large');
  });

  it('refuses requests without a photo, or signed out', async () => {
    const empty = await seller.request('/api/uploads', { method: 'POST', body: new FormData() });
    expect(empty.status).toBeGreaterThanOrEqual(400);
    expect(empty.status).toBeLessThan(500);
    const json = await seller.post('/api/uploads', { image: 'x' });
    expect(json.status).toBe(415);
    expect((await uploadBytes(new TestClient(app), await jpegWithExif(100, 100))).status).toBe(401);
  });

  it('takes car photos from seller accounts only', async () => {
    const photo = await jpegWithExif(100, 100);
    for (const person of [await register(app), await signInAs(app, 'admin@demo.local')]) {
      const response = await uploadBytes(person, photo);
      expect(response.status).toBe(403);
      expect(await codeOf(response)).toBe('forbidden');
    }
  });

  it('deletes, after a day, photos that no car shows, and keeps the rest', async () => {
    const [unused, shown] = await Promise.all(
      [1, 2].map(async () => {
        const response = await uploadBytes(seller, await jpegWithExif(120, 80));
        return ((await response.json()) as { data: { url: string; thumbUrl: string } }).data;
      }),
    );
    const created = await seller.post('/api/product?name=Microbus', {
      name: 'Kept Photo Van',
      reprice: 1_000_000,
      orprice: 1_200_000,
      location: 'Tacoma, WA',
      year: 2019,
      condition: 'Good',
      describe: 'Its photo stays.',
      images: [shown!.url],
    });
    expect(created.status).toBe(200);
    const recent = await uploadBytes(seller, await jpegWithExif(90, 60));
    const recentUrl = ((await recent.json()) as { data: { url: string } }).data.url;
    // Two of them are two days old; the recent one is not.
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    for (const url of [unused!.url, shown!.url]) {
      await app.database.db
        .update(upload)
        .set({ createdAt: twoDaysAgo })
        .where(eq(upload.key, url.replace('/media/', '')));
    }

    expect(await app.sweepUploads()).toBe(1);
    expect((await app.request(unused!.url)).status).toBe(404);
    expect((await app.request(unused!.thumbUrl)).status).toBe(404);
    expect((await app.request(shown!.url)).status).toBe(200);
    expect((await app.request(recentUrl)).status).toBe(200);
    // The demo cars' photos, however old, stay: cars show them.
    const [demo] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, 'seller@demo.local'));
    const demoPhotos = await app.database.db
      .update(upload)
      .set({ createdAt: twoDaysAgo })
      .where(eq(upload.ownerId, demo!.id))
      .returning({ key: upload.key });
    expect(demoPhotos.length).toBeGreaterThan(0);
    expect(await app.sweepUploads()).toBe(0);
  });

  it('holds each person to a daily quota', async () => {
    const person = await register(app, { role: 'Seller' });
    const photo = await jpegWithExif(64, 64);
    const statuses: number[] = [];
    for (let i = 0; i < 13; i += 1) statuses.push((await uploadBytes(person, photo)).status);
    expect(statuses.slice(0, 12).every((s) => s === 200)).toBe(true);
    expect(statuses[12]).toBe(429);
  });

  it('never lets parallel uploads past the daily quota', async () => {
    const person = await register(app, { role: 'Seller' });
    const photo = await jpegWithExif(64, 64);
    const statuses = await Promise.all(
      Array.from({ length: 30 }, async () => (await uploadBytes(person, photo)).status),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(12);
    expect(statuses.filter((status) => status === 429)).toHaveLength(18);
  });
});

import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategorySummary } from '@carmarket/shared';
import { register } from '../test/client.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';
import { jpegWithExif, uploadBytes } from '../test/uploads.ts';

/** A small S3 stand-in: path-style PUT, GET and DELETE of objects in memory. */
async function startFakeS3() {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = decodeURIComponent(req.url!.split('?')[0]!);
      if (req.method === 'PUT') {
        objects.set(path, {
          body: Buffer.concat(chunks),
          type: req.headers['content-type'] ?? 'application/octet-stream',
        });
        res.setHeader('etag', '"fake"');
        res.end();
      } else if (req.method === 'GET' || req.method === 'HEAD') {
        const object = objects.get(path);
        if (!object) {
          res.statusCode = 404;
          res.setHeader('content-type', 'application/xml');
          res.end(
            '<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
          );
          return;
        }
        res.setHeader('content-type', object.type);
        res.setHeader('content-length', String(object.body.length));
        res.end(req.method === 'GET' ? object.body : undefined);
      } else if (req.method === 'DELETE') {
        objects.delete(path);
        res.statusCode = 204;
        res.end();
      } else {
        res.statusCode = 405;
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe('S3 storage', () => {
  let s3: Awaited<ReturnType<typeof startFakeS3>>;
  let app: TestApp;
  beforeAll(async () => {
    s3 = await startFakeS3();
    app = await startTestApp({
      env: {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'cars',
        S3_ENDPOINT: s3.url,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'test',
        S3_SECRET_ACCESS_KEY: 'test-secret',
        S3_PREFIX: 'media/',
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await s3.close();
  });

  it('keeps seeded and uploaded photos in the bucket and serves them from /media', async () => {
    const [category] = (await (await app.request('/api/category')).json()) as CategorySummary[];
    const key = category!.icon.replace('/media/', '');
    expect(s3.objects.has(`/cars/media/${key}`)).toBe(true);
    const icon = await app.request(category!.icon);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/webp');

    const seller = await register(app, { role: 'Seller' });
    const upload = await uploadBytes(seller, await jpegWithExif(800, 600));
    const { data } = (await upload.json()) as { data: { url: string; thumbUrl: string } };
    expect(s3.objects.get(`/cars/media/${data.url.replace('/media/', '')}`)?.type).toBe(
      'image/webp',
    );
    expect((await app.request(data.thumbUrl)).status).toBe(200);
    expect((await app.request('/media/00000000-0000-4000-8000-000000000000.webp')).status).toBe(
      404,
    );
  });
});

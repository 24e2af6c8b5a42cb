import sharp from 'sharp';
import type { TestClient } from './client.ts';

/** Posts bytes as the multipart field `image`, the way the add-product form does. */
export async function uploadBytes(
  client: TestClient,
  bytes: Buffer,
  filename = 'photo.jpg',
  type = 'image/jpeg',
  path = '/api/uploads',
) {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(bytes)], { type }), filename);
  return client.request(path, { method: 'POST', body: form });
}

/** A real JPEG photo with EXIF (camera, GPS-like comment) to prove the metadata is stripped. */
export async function jpegWithExif(width = 1200, height = 800): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: {
        Make: 'TestCam',
        Model: 'Spy 3000',
        Copyright: 'Secret Owner',
        ImageDescription: 'GPS 48.8584 N 2.2945 E',
      },
    })
    .toBuffer();
}

/** Uploads a fresh photo and answers its URL. */
export async function uploadPhoto(client: TestClient): Promise<string> {
  const response = await uploadBytes(client, await jpegWithExif(640, 480));
  if (response.status !== 200)
    throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: { url: string } }).data.url;
}

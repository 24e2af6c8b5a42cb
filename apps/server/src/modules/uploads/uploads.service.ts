import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { listing, upload, user, type ListingImage } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { MEDIA_PREFIX, type Storage } from '../../adapters/storage.ts';
import { processUpload } from './image-processing.ts';

export interface UploadQuota {
  perDay: number;
}

const overQuota = (quota: UploadQuota) =>
  new AppError(
    429,
    'too-many-requests',
    `You can upload ${quota.perDay} photos a day. Please try again tomorrow.`,
    { retryAfterSeconds: 3600 },
  );

async function uploadsToday(db: Db | Tx, ownerId: string): Promise<number> {
  const [{ count } = { count: 0 }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(upload)
    .where(and(eq(upload.ownerId, ownerId), gt(upload.createdAt, sql`now() - interval '1 day'`)));
  return count;
}

/**
 * Stores a checked, re-encoded photo and its thumbnail under random names. The quota is checked
 * cheaply first, then again with the owner's row locked as the upload is recorded, so parallel
 * uploads can never pass it together.
 */
export async function storeUpload(
  db: Db,
  storage: Storage,
  quota: UploadQuota,
  ownerId: string,
  bytes: Buffer,
): Promise<ListingImage> {
  if ((await uploadsToday(db, ownerId)) >= quota.perDay) throw overQuota(quota);
  const image = await processUpload(bytes);
  const id = randomUUID();
  const key = `${id}.webp`;
  const thumbKey = `${id}-thumb.webp`;
  await storage.put(key, image.full, 'image/webp');
  await storage.put(thumbKey, image.thumb, 'image/webp');
  try {
    await db.transaction(async (tx) => {
      await tx.select({ id: user.id }).from(user).where(eq(user.id, ownerId)).for('update');
      if ((await uploadsToday(tx, ownerId)) >= quota.perDay) throw overQuota(quota);
      await tx.insert(upload).values({
        ownerId,
        key,
        thumbKey,
        bytes: image.full.length + image.thumb.length,
        width: image.width,
        height: image.height,
      });
    });
  } catch (error) {
    await Promise.allSettled([storage.delete(key), storage.delete(thumbKey)]);
    throw error;
  }
  return {
    url: storage.url(key),
    thumbUrl: storage.url(thumbKey),
    width: image.width,
    height: image.height,
  };
}

/**
 * The photos behind these URLs, in the order given, if every one is an upload of this owner.
 * URLs from the client are only keys to look up; nothing else of them is trusted.
 */
export async function resolveOwnUploads(
  db: Db,
  storage: Storage,
  ownerId: string,
  urls: string[],
): Promise<ListingImage[]> {
  const keys = urls.map((url) =>
    url.startsWith(MEDIA_PREFIX) ? url.slice(MEDIA_PREFIX.length) : url,
  );
  if (new Set(keys).size !== keys.length) {
    throw new AppError(400, 'validation-failed', 'The same photo is listed twice.', {
      field: 'images',
    });
  }
  const rows = await db
    .select()
    .from(upload)
    .where(and(eq(upload.ownerId, ownerId), inArray(upload.key, keys)));
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return keys.map((key) => {
    const row = byKey.get(key);
    if (!row) {
      throw new AppError(400, 'validation-failed', 'Every photo must be one you uploaded.', {
        field: 'images',
      });
    }
    return {
      url: storage.url(row.key),
      thumbUrl: storage.url(row.thumbKey),
      width: row.width,
      height: row.height,
    };
  });
}

/**
 * Deletes photos uploaded before `before` that no car shows and no one has as profile photo (a
 * form abandoned, a photo replaced): their rows first, so no car can take them meanwhile, then
 * their files. Answers how many.
 */
export async function sweepUnusedUploads(
  db: Db,
  storage: Storage,
  before = new Date(Date.now() - 24 * 60 * 60 * 1000),
  log?: { warn(obj: object, msg: string): void },
): Promise<number> {
  const removed = await db
    .delete(upload)
    .where(
      and(
        lt(upload.createdAt, before),
        sql`not exists (select 1 from ${listing}, jsonb_array_elements(${listing.images}) as image where image->>'url' = ${MEDIA_PREFIX} || ${upload.key})`,
        // A profile photo is kept as its thumbnail's address (account-flows.ts sets it so).
        sql`${MEDIA_PREFIX} || ${upload.thumbKey} not in (select ${user.image} from ${user} where ${user.image} is not null)`,
      ),
    )
    .returning({ key: upload.key, thumbKey: upload.thumbKey });
  for (const { key, thumbKey } of removed) {
    for (const file of [key, thumbKey]) {
      await storage.delete(file).catch((error: unknown) => {
        log?.warn({ err: error, key: file }, 'could not delete an unused photo');
      });
    }
  }
  return removed.length;
}

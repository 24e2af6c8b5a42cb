import { Readable } from 'node:stream';
import { MEDIA_PREFIX, isValidStorageKey, type Storage } from './storage.ts';

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
  prefix: string;
}

/**
 * S3 or any S3-compatible store (MinIO, R2, ...): what several server machines share. Objects are
 * still served through `/media/<key>`, so pages keep one origin and one CSP.
 */
export async function createS3Storage(options: S3Options): Promise<Storage> {
  // Loaded only when photos live in a bucket: the SDK costs a server ~20 MB that uses it not.
  const { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } =
    await import('@aws-sdk/client-s3');
  const client = new S3Client({
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    // Plain checksums, which every S3-compatible store understands.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(options.endpoint && { endpoint: options.endpoint }),
    ...(options.accessKeyId &&
      options.secretAccessKey && {
        credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      }),
  });
  const objectKey = (key: string) => {
    if (!isValidStorageKey(key)) throw new Error(`Invalid storage key: ${key}`);
    return `${options.prefix}${key}`;
  };
  return {
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: objectKey(key),
          Body: body,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },
    async get(key) {
      if (!isValidStorageKey(key)) return null;
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }),
        );
        if (!object.Body) return null;
        return {
          body:
            object.Body instanceof Readable
              ? object.Body
              : Readable.from(object.Body as AsyncIterable<Uint8Array>),
          contentType: object.ContentType ?? 'application/octet-stream',
          size: Number(object.ContentLength ?? 0),
        };
      } catch (error) {
        if (
          error instanceof NoSuchKey ||
          (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
        ) {
          return null;
        }
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }));
    },
    url: (key) => `${MEDIA_PREFIX}${key}`,
  };
}

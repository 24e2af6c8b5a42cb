import sharp, { type Metadata } from 'sharp';
import { AppError } from '../../lib/errors.ts';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Decompression-bomb guard: no more pixels than a 48-megapixel photo. */
export const MAX_INPUT_PIXELS = 48_000_000;
const FULL_WIDTH = 1920;
const THUMB_WIDTH = 480;

type ImageKind = 'jpeg' | 'png' | 'webp' | 'avif';

/** The image type by its first bytes; the name and the declared type are never trusted. */
export function sniffImageType(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'png';
  }
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return 'webp';
  }
  if (bytes.length >= 12 && bytes.toString('latin1', 4, 8) === 'ftyp') {
    const brand = bytes.toString('latin1', 8, 12);
    if (brand === 'avif' || brand === 'avis') return 'avif';
  }
  return null;
}

export interface ProcessedImage {
  full: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
}

// Said of a file whose name or type claimed a photo (the page checks those before sending).
const unsupported = () =>
  new AppError(
    415,
    'unsupported-media-type',
    'This file is not a JPEG, PNG, WebP or AVIF photo, whatever its name says.',
    { field: 'image' },
  );

/**
 * Checks and re-encodes an uploaded photo: decoded by content, size-limited, turned upright,
 * re-encoded to WebP with every piece of metadata (EXIF, GPS, ICC comments) dropped.
 */
export async function processUpload(bytes: Buffer): Promise<ProcessedImage> {
  const kind = sniffImageType(bytes);
  if (!kind) throw unsupported();
  const input = () =>
    sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false });
  let metadata: Metadata;
  try {
    metadata = await input().metadata();
  } catch {
    throw new AppError(415, 'unsupported-media-type', 'That file is not a readable image.', {
      field: 'image',
    });
  }
  const format = metadata.format === 'heif' ? 'avif' : metadata.format;
  if (format !== kind) throw unsupported();
  if (!metadata.width || !metadata.height || metadata.width * metadata.height > MAX_INPUT_PIXELS) {
    throw new AppError(
      413,
      'payload-too-large',
      'That image has too many pixels (48 megapixels at most).',
      {
        field: 'image',
      },
    );
  }
  try {
    // rotate() applies the EXIF orientation; sharp writes no metadata unless asked to.
    const full = await input()
      .rotate()
      .resize({ width: FULL_WIDTH, withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    const thumb = await sharp(full.data)
      .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
      .webp({ quality: 72 })
      .toBuffer();
    return { full: full.data, thumb, width: full.info.width, height: full.info.height };
  } catch {
    throw new AppError(415, 'unsupported-media-type', 'That image could not be processed.', {
      field: 'image',
    });
  }
}

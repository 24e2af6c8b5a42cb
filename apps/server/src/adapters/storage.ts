import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** Where uploaded and generated images live. Keys are flat random names such as `ab12.webp`. */
export interface Storage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** A stream of the object, or null when there is none. */
  get(key: string): Promise<{ body: Readable; contentType: string; size: number } | null>;
  delete(key: string): Promise<void>;
  /** The URL browsers load the object from. */
  url(key: string): string;
}

export const MEDIA_PREFIX = '/media/';
const KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,127}$/;
const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.avif': 'image/avif',
};

export function isValidStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.includes('..') && path.extname(key) in CONTENT_TYPES;
}

/** Local disk under `$DATA_DIR/uploads`: the default, for one machine. */
export function createLocalStorage(directory: string): Storage {
  const fileFor = (key: string) => {
    if (!isValidStorageKey(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(directory, key);
  };
  return {
    async put(key, body) {
      await fs.mkdir(directory, { recursive: true });
      const file = fileFor(key);
      // Write then rename, so a reader never sees half a file.
      const temporary = `${file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, body);
      await fs.rename(temporary, file);
    },
    async get(key) {
      if (!isValidStorageKey(key)) return null;
      const file = fileFor(key);
      try {
        const stat = await fs.stat(file);
        if (!stat.isFile()) return null;
        const contentType = CONTENT_TYPES[path.extname(key)] ?? 'application/octet-stream';
        return { body: createReadStream(file), contentType, size: stat.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileFor(key), { force: true });
    },
    url: (key) => `${MEDIA_PREFIX}${key}`,
  };
}

import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../adapters/storage.ts';
import type { Db } from '../db/client.ts';
import { sweepUnusedUploads } from '../modules/uploads/uploads.service.ts';
import type { Job } from './job.ts';

/** Deletes photos no car has shown for a day, every CLEANUP_INTERVAL_MINUTES. */
export function uploadSweepJob(
  db: Db,
  storage: Storage,
  log: FastifyBaseLogger,
  intervalMs: number,
): Job<number> {
  return {
    name: 'upload sweep',
    intervalMs,
    run: () => sweepUnusedUploads(db, storage, undefined, log),
  };
}

import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../adapters/storage.ts';
import type { Db } from '../db/client.ts';
import { sweepUnusedUploads } from '../modules/uploads/uploads.service.ts';
import type { Job } from './job.ts';

/** Hourly: no setting has asked for another pace. */
const HOUR_MS = 60 * 60 * 1000;

/** Deletes photos no car has shown for a day, every hour. */
export function uploadSweepJob(db: Db, storage: Storage, log: FastifyBaseLogger): Job<number> {
  return {
    name: 'upload sweep',
    intervalMs: HOUR_MS,
    run: () => sweepUnusedUploads(db, storage, undefined, log),
  };
}

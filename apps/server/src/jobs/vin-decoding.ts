import type { Db } from '../db/client.ts';
import { decodeWaitingCars } from '../modules/vin/vin-backfill.ts';
import type { VinDecoder } from '../modules/vin/vin-decoder.ts';
import type { Job } from './job.ts';

/** Decodes the VINs of cars not decoded yet (decision 033), every VIN_DECODE_INTERVAL_SECONDS. */
export function vinDecodingJob(
  db: Db,
  decoder: VinDecoder,
  intervalMs: number,
): Job<Awaited<ReturnType<typeof decodeWaitingCars>>> {
  return {
    name: 'VIN decoding',
    intervalMs,
    run: (stopping) => decodeWaitingCars(db, decoder, stopping),
  };
}

import type { VinDecode } from '@carmarket/shared';
import { notFound } from '../../lib/errors.ts';
import { formatWait, spend, type CounterStore } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { VinDecodeRefused, type VinDecoder } from './vin-decoder.ts';

export interface VinDeps {
  decoder: VinDecoder;
  counters: CounterStore;
  perMinute: number;
}

/**
 * What a well-formed VIN decodes as, for `actor`; 404 when it cannot be decoded. A VIN decoded
 * lately answers from memory and costs nothing; any other counts against the person's minute
 * (shared by every process through the counters). A decode that fails gives its count back; one
 * refused (busy, or the person's share of the queue waiting already) keeps it, so that retrying
 * refusals at once soon meets the minute's limit (issue 45).
 */
export async function decodeVinFor(
  { decoder, counters, perMinute }: VinDeps,
  actor: SessionUser,
  vin: string,
): Promise<VinDecode> {
  let decoded = decoder.cached(vin);
  if (decoded === undefined) {
    const giveBack = await spend(
      counters,
      [
        {
          key: `vin:${actor.id}`,
          max: perMinute,
          windowMs: 60_000,
          message: (seconds) =>
            `You can decode ${perMinute} VINs a minute. Try again in ${formatWait(seconds)}.`,
        },
      ],
      { unavailable: 'VIN decoding is unavailable for a moment.' },
    );
    try {
      decoded = await decoder.decode(vin, `user:${actor.id}`);
    } catch (error) {
      if (!(error instanceof VinDecodeRefused)) await giveBack();
      throw error;
    }
  }
  if (!decoded) throw notFound('A car with this VIN');
  return decoded;
}

import type { VinDecode } from '@carmarket/shared';
import { notFound } from '../../lib/errors.ts';
import { formatWait, orGiveBack, spend, type CounterStore } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { VinDecoder } from './vin-decoder.ts';

export interface VinDeps {
  decoder: VinDecoder;
  counters: CounterStore;
  perMinute: number;
}

/**
 * What a well-formed VIN decodes as, for `actor`; 404 when it cannot be decoded. A VIN decoded
 * lately answers from memory and costs nothing; any other counts against the person's minute
 * (shared by every process through the counters), and a decode that fails gives its count back.
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
    decoded = await orGiveBack(giveBack, () => decoder.decode(vin));
  }
  if (!decoded) throw notFound('A car with this VIN');
  return decoded;
}

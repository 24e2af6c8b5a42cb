import type { DomainEvents } from '../../lib/events.ts';
import { noteVinChanged } from './vin-backfill.ts';
import type { VinDecoder } from './vin-decoder.ts';

/**
 * What the VIN decoding hears of the core's changes (decision 026): a car listed, or its VIN
 * changed, keeps what this process decoded of the VIN lately, else waits for the job.
 */
export function subscribeVin(events: DomainEvents, decoder: VinDecoder): void {
  events.subscribe('car.listed', 'vin', (tx, { carId }) => noteVinChanged(tx, decoder, carId));
  events.subscribe('car.edited', 'vin', async (tx, { carId, changed }) => {
    if (changed.includes('vin')) await noteVinChanged(tx, decoder, carId);
  });
}

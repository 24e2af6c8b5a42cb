import type { HoldResult } from '@carmarket/shared';

import { api } from '../../../lib/api-client';

/**
 * `POST /api/payments/hold`: sent with the card form, before the card is confirmed. Holds the car
 * for this buyer while the processor confirms the card; refused (409) while another buyer's card
 * is being confirmed, or while this buyer is paying for another car, and (429, with a sentence
 * saying when to try again) past the hold limits: a car just let go, too many cars a day, or too
 * many held from one address.
 */
export function holdCar(bookingId: string): Promise<HoldResult> {
  return api.post<HoldResult>('/payments/hold', { bookingId });
}

import type { VinDecode } from '@carmarket/shared';
import { useMutation } from '@tanstack/react-query';

import { api, ApiError } from '../../../lib/api-client';

/** Words for the answers a seller can do something about; the server words the rest. */
export function vinErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 404) {
    return 'We could not decode this VIN: check it for a typo, or fill in the car yourself.';
  }
  return error instanceof Error ? error.message : 'Something went wrong. Please try again.';
}

/**
 * `GET /api/vin/:vin` (signed in): what a VIN decodes as (decision 033). A mutation rather than a
 * query: it is asked when the seller presses Fill from VIN, never as they type.
 */
export function useDecodeVin() {
  return useMutation({
    mutationFn: (vin: string) => api.get<VinDecode>(`/vin/${encodeURIComponent(vin)}`),
  });
}

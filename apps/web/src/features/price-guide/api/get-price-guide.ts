import type { PriceGuide, PriceGuideQuery } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api, ApiError } from '../../../lib/api-client';

/**
 * `GET /api/price-guide` (signed in): what cars like the seller's sell for, or null when there
 * are too few of them (404). Without a make, model and year, nothing is asked.
 */
export function usePriceGuide(query: PriceGuideQuery | null) {
  return useQuery({
    queryKey: ['price-guide', query], // this feature's one key
    enabled: query !== null,
    // A guide changes when the guide's job runs (hourly), not while a seller types.
    staleTime: 5 * 60_000,
    retry: false,
    queryFn: async ({ signal }) => {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query!)) {
        if (value !== undefined) params.set(name, String(value));
      }
      try {
        // The signal cancels a request whose answer no one waits for any more: the seller typed on.
        return await api.get<PriceGuide>(`/price-guide?${params}`, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

import type { CarStats } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** Starts with the feature's word: a change to a car (manage-listing.ts) refreshes its figures. */
export const carStatsKey = (id: string) => ['seller', 'car-stats', id] as const;

/** `GET /api/my/listings/:id/stats`: how one of the seller's cars did over the last 30 days. */
export function getCarStats(id: string, signal?: AbortSignal): Promise<CarStats> {
  return api.get<CarStats>(
    `/my/listings/${encodeURIComponent(id)}/stats`,
    signal ? { signal } : {},
  );
}

export function useCarStats(id: string) {
  return useQuery({
    queryKey: carStatsKey(id),
    queryFn: ({ signal }) => getCarStats(id, signal),
  });
}

import type { SellerProfile } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sellerKeys } from './query-keys';

/** `GET /api/sellers/:id`: a seller's profile (issue 32). */
export function getSeller(id: string, signal?: AbortSignal): Promise<SellerProfile> {
  return api.get<SellerProfile>(`/sellers/${encodeURIComponent(id)}`, signal ? { signal } : {});
}

export const sellerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: sellerKeys.profile(id),
    queryFn: ({ signal }) => getSeller(id, signal),
    // Counts and reply figures move slowly: a car page and the profile share one answer a while.
    staleTime: 5 * 60_000,
  });

export function useSeller(id: string) {
  return useQuery(sellerQueryOptions(id));
}

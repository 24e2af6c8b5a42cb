import type { MyListingCounts } from '@carmarket/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sellerKeys } from './query-keys';

/** `GET /api/my/listings/counts?q=`: how many of the seller's cars are in each state (the tabs). */
function getMyListingCounts(q: string, signal: AbortSignal) {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  return api.get<MyListingCounts>(`/my/listings/counts${q ? `?${params}` : ''}`, { signal });
}

export function useMyListingCounts(q: string) {
  return useQuery({
    queryKey: sellerKeys.counts(q),
    queryFn: ({ signal }) => getMyListingCounts(q, signal),
    // The tabs keep their numbers while a new search's are counted.
    placeholderData: keepPreviousData,
  });
}

import type { MyListing } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

export const myListingsQueryKey = ['seller', 'listings'] as const;

/** `GET /api/my/listings`: the seller's own cars, newest first, with their bookings. */
export const myListingsQueryOptions = queryOptions({
  queryKey: myListingsQueryKey,
  queryFn: ({ signal }) => api.get<MyListing[]>('/my/listings', { signal }),
});

export function useMyListings() {
  return useQuery(myListingsQueryOptions);
}

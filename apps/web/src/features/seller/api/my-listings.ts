import type { MyListing } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sellerKeys } from './query-keys';

/** `GET /api/my/listings`: the seller's own cars, newest first, with their bookings. */
export const myListingsQueryOptions = queryOptions({
  queryKey: sellerKeys.listings,
  queryFn: ({ signal }) => api.get<MyListing[]>('/my/listings', { signal }),
});

export function useMyListings() {
  return useQuery(myListingsQueryOptions);
}

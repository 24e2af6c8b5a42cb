import { SEARCH_PAGE_SIZE, type MyListing } from '@carmarket/shared';
import { useInfiniteQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sellerKeys } from './query-keys';

export interface MyListingsPage {
  cars: MyListing[];
  /** How many cars the seller has in all. */
  total: number;
  nextCursor: string | null;
}

/**
 * `GET /api/my/listings?limit=&cursor=`: a page of the seller's own cars, newest first, with
 * their bookings; the total is in `X-Total-Count`, the next page's cursor in `X-Next-Cursor`.
 */
async function getMyListings(cursor: string | null, signal: AbortSignal): Promise<MyListingsPage> {
  const params = new URLSearchParams({ limit: String(SEARCH_PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  let total: string | null = null;
  let nextCursor: string | null = null;
  const cars = await api.get<MyListing[]>(`/my/listings?${params}`, {
    signal,
    onHeaders: (headers) => {
      total = headers.get('x-total-count');
      nextCursor = headers.get('x-next-cursor');
    },
  });
  return { cars, total: Number(total ?? cars.length), nextCursor };
}

export function useMyListings() {
  return useInfiniteQuery({
    queryKey: sellerKeys.listings,
    queryFn: ({ pageParam, signal }) => getMyListings(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

import {
  SEARCH_PAGE_SIZE,
  type MyListing,
  type MyListingSort,
  type MyListingStatus,
} from '@carmarket/shared';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sellerKeys } from './query-keys';

export interface MyListingsPage {
  cars: MyListing[];
  /** How many of the seller's cars match, in all. */
  total: number;
  nextCursor: string | null;
}

/** What My cars shows: one state or all, a search, an order. */
export interface MyCarsView {
  status: MyListingStatus | null;
  q: string;
  sort: MyListingSort;
}

/**
 * `GET /api/my/listings?status=&q=&sort=&limit=&cursor=`: a page of the seller's own cars with
 * their bookings; the total that match is in `X-Total-Count`, the next page's cursor in
 * `X-Next-Cursor`.
 */
async function getMyListings(
  view: MyCarsView,
  cursor: string | null,
  signal: AbortSignal,
): Promise<MyListingsPage> {
  const params = new URLSearchParams({ limit: String(SEARCH_PAGE_SIZE) });
  if (view.status) params.set('status', view.status);
  if (view.q) params.set('q', view.q);
  if (view.sort !== 'newest') params.set('sort', view.sort);
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

export function useMyListings(view: MyCarsView) {
  return useInfiniteQuery({
    queryKey: sellerKeys.listingsIn(view),
    queryFn: ({ pageParam, signal }) => getMyListings(view, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Another tab, search or order shows the cars before it (dimmed) until its own arrive.
    placeholderData: keepPreviousData,
  });
}

import type { SearchResult } from '@carmarket/shared';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { retrySearch, searchRetryDelay } from '../../../lib/search-retry';
import { sellerKeys } from './query-keys';

/** Cars a page of the seller's profile shows. */
export const SELLER_CARS_PAGE = 12;

/**
 * `GET /api/listings?seller=:id`: the seller's cars on sale, newest first, a page at a time by
 * the search's cursor (no facets: the profile has no filters).
 */
export const sellerCarsOptions = (id: string) =>
  infiniteQueryOptions({
    queryKey: sellerKeys.cars(id),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({
        seller: id,
        sort: 'newest',
        limit: String(SELLER_CARS_PAGE),
      });
      if (pageParam) params.set('cursor', pageParam);
      return api.get<SearchResult>(`/listings?${params.toString()}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 60_000,
    retry: retrySearch,
    retryDelay: searchRetryDelay,
  });

export function useSellerCars(id: string) {
  return useInfiniteQuery(sellerCarsOptions(id));
}

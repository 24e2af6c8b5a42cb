import type { CategoryDetail } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { retrySearch, searchRetryDelay } from '../../../lib/search-retry';
import { listingKeys } from './query-keys';

/**
 * `GET /api/category/:id?limit=1`: the category's name, icon and how many cars it has on sale
 * (signed in). Its cars come from the search, with the category chosen.
 */
export function getCategory(id: string, signal?: AbortSignal): Promise<CategoryDetail> {
  return api.get<CategoryDetail>(categoryPath(id), signal ? { signal } : {});
}

/** The API path of a category's name, icon and count (after `/api`). */
export const categoryPath = (id: string) => `/category/${encodeURIComponent(id)}?limit=1`;

export const categoryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: listingKeys.categoryPage(id),
    queryFn: ({ signal }) => getCategory(id, signal),
    // A category's page counts against the search budget: a 429 waits and is tried again.
    retry: retrySearch,
    retryDelay: searchRetryDelay,
  });

export function useCategory(id: string) {
  return useQuery(categoryQueryOptions(id));
}

import type { CategoryDetail } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { listingKeys } from './query-keys';

/** `GET /api/category/:id`: the category and its cars that can be booked now (signed in). */
export function getCategory(id: string, signal?: AbortSignal): Promise<CategoryDetail> {
  return api.get<CategoryDetail>(`/category/${encodeURIComponent(id)}`, signal ? { signal } : {});
}

export const categoryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: listingKeys.categoryPage(id),
    queryFn: ({ signal }) => getCategory(id, signal),
  });

export function useCategory(id: string) {
  return useQuery(categoryQueryOptions(id));
}

import type { CategorySummary } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** `GET /api/category`: every category with the number of cars that can be booked now. */
export function getCategories(signal?: AbortSignal): Promise<CategorySummary[]> {
  return api.get<CategorySummary[]>('/category', signal ? { signal } : {});
}

export const categoriesQueryOptions = queryOptions({
  queryKey: ['categories'],
  queryFn: ({ signal }) => getCategories(signal),
});

export function useCategories() {
  return useQuery(categoriesQueryOptions);
}

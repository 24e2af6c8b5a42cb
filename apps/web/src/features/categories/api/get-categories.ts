import type { CategorySummary } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** `GET /api/category`: every category with the number of cars that can be booked now. */
export function getCategories(signal?: AbortSignal): Promise<CategorySummary[]> {
  return api.get<CategorySummary[]>('/category', signal ? { signal } : {});
}

/**
 * Loaded again whenever the home page shows it (the cached counts show meanwhile), so a sale or a
 * withdrawn car elsewhere needs no word from the feature that made it. The home page's alone: the
 * pages that choose categories have category-choices.ts, so that the home page loads no module
 * shared with them (one more chunk up front).
 * A plain object rather than queryOptions(): that helper would be one more chunk on the home page.
 */
export const categoriesQueryOptions = {
  queryKey: ['categories'] as const, // this feature's one key
  queryFn: ({ signal }: { signal?: AbortSignal }) => getCategories(signal),
  staleTime: 0,
};

export function useCategories() {
  return useQuery(categoriesQueryOptions);
}

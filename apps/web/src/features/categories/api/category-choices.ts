import type { CategorySummary } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/**
 * `GET /api/category` for the pages that choose or change categories (the car form, the admin's
 * Categories page): the same call, key and freshness as get-categories.ts, which the home page
 * uses. Two modules on purpose: a module the home page's chunk shared with these pages would be a
 * chunk of its own, one more file up front on the home page (its budget has no room for it).
 */
export const categoryChoicesQueryOptions = {
  queryKey: ['categories'] as const, // get-categories.ts's key, written out
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    api.get<CategorySummary[]>('/category', signal ? { signal } : {}),
  staleTime: 0,
};

export function useCategoryChoices() {
  return useQuery(categoryChoicesQueryOptions);
}

import type { CategorySummary } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** `GET /api/category`: every category with the number of cars that can be booked now. */
export function getCategories(signal?: AbortSignal): Promise<CategorySummary[]> {
  return api.get<CategorySummary[]>('/category', signal ? { signal } : {});
}

// A plain object rather than queryOptions(): that helper would be one more chunk on the home page.
export const categoriesQueryOptions = {
  queryKey: ['categories'] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) => getCategories(signal),
};

export function useCategories() {
  return useQuery(categoriesQueryOptions);
}

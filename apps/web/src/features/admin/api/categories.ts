import type {
  AdminCategory,
  CategoryIconOption,
  CreateCategoryInput,
  UpdateCategoryInput,
} from '@carmarket/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { categoryChoicesQueryOptions } from '../../categories';
import { listingKeys } from '../../listings';
import { adminKeys } from './query-keys';

/** `GET /api/categories`: every category in order, with its cars in every state. */
export function useAdminCategories() {
  return useQuery({
    queryKey: adminKeys.categories,
    queryFn: ({ signal }) => api.get<AdminCategory[]>('/categories', { signal }),
  });
}

/** `GET /api/categories/icons`: the icons a category may have; the set ships with the server. */
export function useCategoryIcons() {
  return useQuery({
    queryKey: adminKeys.categoryIcons,
    queryFn: ({ signal }) => api.get<CategoryIconOption[]>('/categories/icons', { signal }),
    staleTime: Infinity,
  });
}

/**
 * After any change (or a refusal, which may mean another admin changed them): this page, the
 * list everyone reads (home tiles, the car form), the audit log and the category pages, whose
 * cars a deletion moved.
 */
function useRefreshCategories() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.categories }),
      queryClient.invalidateQueries({ queryKey: categoryChoicesQueryOptions.queryKey }),
      queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      queryClient.invalidateQueries({ queryKey: listingKeys.categoryPages }),
    ]);
}

/** `POST /api/categories`: adds one at the end of the list. */
export function useAddCategory() {
  const refresh = useRefreshCategories();
  return useMutation({
    mutationFn: (input: CreateCategoryInput) => api.post<{ _id: string }>('/categories', input),
    onSettled: refresh,
  });
}

/** `PATCH /api/categories/:id`: a new name or icon, or another place in the list. */
export function useUpdateCategory() {
  const refresh = useRefreshCategories();
  return useMutation({
    mutationFn: ({ id, ...changes }: UpdateCategoryInput & { id: string }) =>
      api.patch<{ acknowledged: true }>(`/categories/${id}`, changes),
    onSettled: refresh,
  });
}

/** `DELETE /api/categories/:id`: `moveTo` takes its cars, when it has any. */
export function useDeleteCategory() {
  const refresh = useRefreshCategories();
  return useMutation({
    mutationFn: ({ id, moveTo }: { id: string; moveTo?: string | undefined }) =>
      api.delete<{ acknowledged: true; carsMoved: number }>(
        `/categories/${id}`,
        moveTo ? { moveTo } : {},
      ),
    onSettled: refresh,
  });
}

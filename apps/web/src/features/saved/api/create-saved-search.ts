import type { CreateSavedSearchInput } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { savedKeys } from './query-keys';

/** `POST /api/saved-searches`: saves a search (at most 50; the server says so past that). */
export function createSavedSearch(input: CreateSavedSearchInput) {
  return api.post<{ acknowledged: true; insertedId: string }>('/saved-searches', input);
}

export function useCreateSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSavedSearch,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedKeys.searches }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { savedKeys } from './query-keys';

/** `DELETE /api/saved-searches/:id`: deletes it; no more alerts come for it. */
export function deleteSavedSearch(id: string) {
  return api.delete<{ acknowledged: true }>(`/saved-searches/${encodeURIComponent(id)}`);
}

export function useDeleteSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSavedSearch,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedKeys.searches }),
  });
}

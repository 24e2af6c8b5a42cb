import type { SavedSearch, UpdateSavedSearchInput } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { savedKeys } from './query-keys';

export interface UpdateSavedSearchRequest {
  id: string;
  changes: UpdateSavedSearchInput;
}

/** `PATCH /api/saved-searches/:id`: renames it, sets its alerts, or marks it visited now. */
export function updateSavedSearch({ id, changes }: UpdateSavedSearchRequest) {
  return api.patch<{ acknowledged: true }>(`/saved-searches/${encodeURIComponent(id)}`, changes);
}

/**
 * A change to a saved search, shown in the list at once (a new name or alerts choice; a visit
 * clears its "new" count) and then loaded again from the server, whatever it answered.
 */
export function useUpdateSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSavedSearch,
    onMutate: async ({ id, changes: { name, alerts, visited } }) => {
      await queryClient.cancelQueries({ queryKey: savedKeys.searches });
      queryClient.setQueryData<SavedSearch[]>(savedKeys.searches, (searches) =>
        searches?.map((search) =>
          search._id === id
            ? {
                ...search,
                ...(name !== undefined && { name }),
                ...(alerts !== undefined && { alerts }),
                ...(visited && { newSinceVisit: 0 }),
              }
            : search,
        ),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: savedKeys.searches }),
  });
}

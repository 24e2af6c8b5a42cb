import type { SavedSearch } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { savedKeys } from './query-keys';

/** `GET /api/saved-searches`: the buyer's saved searches, newest first, with their counts. */
export const savedSearchesQueryOptions = queryOptions({
  queryKey: savedKeys.searches,
  queryFn: ({ signal }) => api.get<SavedSearch[]>('/saved-searches', { signal }),
});

export function useSavedSearches() {
  return useQuery(savedSearchesQueryOptions);
}

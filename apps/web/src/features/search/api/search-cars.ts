import type { SearchResult } from '@carmarket/shared';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { searchKeys } from './query-keys';

/**
 * `GET /api/listings`: the first page comes with facet counts; "Load more" pages follow the
 * cursor without them. While a new search loads, the previous results stay on screen.
 */
export function useSearchCars(query: string) {
  return useInfiniteQuery({
    queryKey: searchKeys.results(query),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams(query);
      if (pageParam) params.set('cursor', pageParam);
      else params.set('facets', '1');
      return api.get<SearchResult>(`/listings?${params.toString()}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    // Results of a search seen a moment ago are fine for Back; newer cars show on reload.
    staleTime: 60_000,
  });
}

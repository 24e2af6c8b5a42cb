import type { SearchResult } from '@carmarket/shared';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { searchKeys } from './query-keys';

/** The API path of a search's first page (after `/api`): it comes with facet counts. */
export function firstPagePath(query: string): string {
  const params = new URLSearchParams(query);
  params.set('facets', '1');
  return `/listings?${params.toString()}`;
}

/**
 * `GET /api/listings`: the first page comes with facet counts; "Load more" pages follow the
 * cursor without them. While a new search loads, the previous results stay on screen.
 */
export function useSearchCars(query: string) {
  return useInfiniteQuery({
    queryKey: searchKeys.results(query),
    queryFn: ({ pageParam, signal }) => {
      if (!pageParam) return api.get<SearchResult>(firstPagePath(query), { signal });
      const params = new URLSearchParams(query);
      params.set('cursor', pageParam);
      return api.get<SearchResult>(`/listings?${params.toString()}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    // Results of a search seen a moment ago are fine for Back; newer cars show on reload.
    staleTime: 60_000,
  });
}

/**
 * How many cars each of these searches finds (a page of one car each), in their order: the empty
 * state asks it for the search without each filter in turn, so it can say which one to drop;
 * no searches, no request.
 * One query for all of them (`useQueries` would add to the entry chunk the home page loads).
 */
export function useSearchTotals(queries: string[]) {
  return useQuery({
    queryKey: searchKeys.totals(queries),
    queryFn: ({ signal }) =>
      Promise.all(
        queries.map(async (query) => {
          const params = new URLSearchParams(query);
          params.set('limit', '1');
          const { total, totalIsEstimate } = await api.get<SearchResult>(
            `/listings?${params.toString()}`,
            { signal },
          );
          return { total, totalIsEstimate };
        }),
      ),
    enabled: queries.length > 0,
    staleTime: 60_000,
  });
}

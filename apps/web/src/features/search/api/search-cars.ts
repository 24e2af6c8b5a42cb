import type { SearchResult } from '@carmarket/shared';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

import { api, ApiError } from '../../../lib/api-client';
import { searchKeys } from './query-keys';

const firstPage = (query: string, signal?: AbortSignal) => {
  const params = new URLSearchParams(query);
  params.set('facets', '1');
  return api.get<SearchResult>(`/listings?${params.toString()}`, signal ? { signal } : {});
};

let early: { query: string; answer: Promise<SearchResult>; at: number } | undefined;

/**
 * Asks for the first page of the search the address names as soon as the page's code arrives,
 * before React renders it (which needs the rest of the page's code and the session first).
 */
export function prefetchFirstPage(query: string): void {
  const answer = firstPage(query);
  answer.catch(() => {});
  early = { query, answer, at: Date.now() };
}

/**
 * `GET /api/listings`: the first page comes with facet counts; "Load more" pages follow the
 * cursor without them. While a new search loads, the previous results stay on screen.
 */
export function useSearchCars(query: string) {
  return useInfiniteQuery({
    queryKey: searchKeys.results(query),
    queryFn: ({ pageParam, signal }) => {
      if (!pageParam) {
        // Taken once, and only while fresh: a later visit asks again. A refused early answer is
        // asked again too: opened signed out, the page asked before it sent us to sign in.
        if (early?.query === query && Date.now() - early.at < 10_000) {
          const { answer } = early;
          early = undefined;
          return answer.catch((error: unknown) => {
            if (error instanceof ApiError && error.status === 401) return firstPage(query, signal);
            throw error;
          });
        }
        return firstPage(query, signal);
      }
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

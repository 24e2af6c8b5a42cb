import type { SearchResult } from '@carmarket/shared';
import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { isBusyRefusal, retrySearch, searchRetryDelay } from '../../../lib/search-retry';
import { searchKeys } from './query-keys';

/** Waits up to this long pass without a word; a longer one gets a note (`useSearchCars`). */
const QUIET_WAIT_SECONDS = 3;

/**
 * Whether the page should say why new results are slow to come: a refusal whose wait is long
 * (a minute's searches spent) or that keeps coming back. A short one passes unseen.
 */
export function isLongWait(failureCount: number, error: unknown): boolean {
  return (
    isBusyRefusal(error) &&
    ((error.retryAfterSeconds ?? 1) > QUIET_WAIT_SECONDS || failureCount >= QUIET_WAIT_SECONDS)
  );
}

/**
 * What the search page says while a refused search waits to be tried again: null while the
 * wait is short. A minute's searches spent wait at most the rest of the minute.
 */
export function searchWaitNote(failureCount: number, error: unknown): string | null {
  if (!isBusyRefusal(error) || !isLongWait(failureCount, error)) return null;
  const seconds = error.retryAfterSeconds ?? 1;
  if (seconds <= QUIET_WAIT_SECONDS) {
    return 'You have several searches running at once. New results follow in a moment, by themselves.';
  }
  const within = seconds <= 60 ? 'a minute' : `${Math.ceil(seconds / 60)} minutes`;
  return `You have searched more in the last minute than we allow. New results follow within ${within}, by themselves.`;
}

/** The API path of a search's first page (after `/api`): it comes with facet counts. */
export function firstPagePath(query: string): string {
  const params = new URLSearchParams(query);
  params.set('facets', '1');
  return `/listings?${params.toString()}`;
}

/**
 * `GET /api/listings`: the first page comes with facet counts; "Load more" pages follow the
 * cursor without them. While a new search loads, the previous results stay on screen, also
 * while a search refused for going too fast (429) waits to be tried again.
 */
export const searchCarsOptions = (query: string) =>
  infiniteQueryOptions({
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
    retry: retrySearch,
    retryDelay: searchRetryDelay,
  });

/** `enabled` false: a search the page knows the server would refuse (an inverted range). */
export function useSearchCars(query: string, enabled = true) {
  return useInfiniteQuery({ ...searchCarsOptions(query), enabled });
}

/**
 * `work` for each value, two at a time, answers in order: with the results' own search, within
 * the few searches one person may have running at once (SEARCH_CONCURRENCY_PER_PERSON, 4).
 */
async function twoAtATime<T, R>(values: T[], work: (value: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(values.length);
  let next = 0;
  const worker = async () => {
    while (next < values.length) {
      const index = next++;
      results[index] = await work(values[index]!);
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
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
      twoAtATime(queries, async (query) => {
        const params = new URLSearchParams(query);
        params.set('limit', '1');
        const { total, totalIsEstimate } = await api.get<SearchResult>(
          `/listings?${params.toString()}`,
          { signal },
        );
        return { total, totalIsEstimate };
      }),
    enabled: queries.length > 0,
    staleTime: 60_000,
    retry: retrySearch,
    retryDelay: searchRetryDelay,
  });
}

import type { CategoryDetail } from '@carmarket/shared';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { listingKeys } from './query-keys';

/**
 * `GET /api/category/:id`: the category and one page of its cars on sale, newest first (signed
 * in); `cursor` is the previous page's `nextCursor`.
 */
export function getCategory(
  id: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<CategoryDetail> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return api.get<CategoryDetail>(
    `/category/${encodeURIComponent(id)}${query}`,
    signal ? { signal } : {},
  );
}

export const categoryQueryOptions = (id: string) =>
  infiniteQueryOptions({
    queryKey: listingKeys.categoryPage(id),
    queryFn: ({ signal, pageParam }) => getCategory(id, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The category with every page loaded so far; `fetchNextPage` adds the next. */
export function useCategory(id: string) {
  return useInfiniteQuery({
    ...categoryQueryOptions(id),
    select: (data) => {
      const first = data.pages[0]!;
      return {
        ...first,
        listings: data.pages.flatMap((page) => page.listings),
        nextCursor: data.pages.at(-1)!.nextCursor,
      };
    },
  });
}

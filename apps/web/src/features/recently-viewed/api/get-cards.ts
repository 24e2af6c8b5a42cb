import type { CardsById } from '@carmarket/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** `GET /api/listings/cards?ids=`: the cars asked for as they are now; gone ones left out. */
export function getCards(ids: readonly string[], signal?: AbortSignal): Promise<CardsById> {
  return api.get<CardsById>(
    `/listings/cards?ids=${ids.map(encodeURIComponent).join(',')}`,
    signal ? { signal } : {},
  );
}

/** This feature's one key. */
export const recentlyViewedKey = (ids: readonly string[]) => ['recently-viewed', ...ids];

export function useCards(ids: readonly string[]) {
  return useQuery({
    queryKey: recentlyViewedKey(ids),
    queryFn: ({ signal }) => getCards(ids, signal),
    enabled: ids.length > 0,
    // A car opened or cleared changes the list: the cards shown stay until the new ones come.
    placeholderData: keepPreviousData,
  });
}

import type { Place } from '@carmarket/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { searchKeys } from './query-keys';

/** `GET /api/places?q=`: places whose name starts with `q`, largest first. */
export function usePlaces(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: searchKeys.places(text.toLowerCase()),
    queryFn: ({ signal }) => api.get<Place[]>(`/places?q=${encodeURIComponent(text)}`, { signal }),
    enabled: text.length >= 2,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

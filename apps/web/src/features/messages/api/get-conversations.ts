import type { ConversationList } from '@carmarket/shared';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { messageKeys } from './query-keys';

/** `GET /api/conversations`: mine, newest activity first, a page at a time. */
export function useConversations() {
  return useInfiniteQuery({
    queryKey: messageKeys.conversations,
    queryFn: ({ pageParam, signal }) =>
      api.get<ConversationList>(
        `/conversations${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
        { signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** `GET /api/conversations?listingId=`: my conversation about this car, if I have one. */
export function useConversationForCar(listingId: string, enabled: boolean) {
  return useQuery({
    queryKey: messageKeys.forCar(listingId),
    queryFn: ({ signal }) =>
      api.get<ConversationList>(`/conversations?listingId=${encodeURIComponent(listingId)}`, {
        signal,
      }),
    select: (list) => list.items[0] ?? null,
    enabled,
  });
}

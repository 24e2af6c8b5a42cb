import type { UnreadCount } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { messageKeys } from './query-keys';

/** `GET /api/conversations/unread`: the number on the Messages badge. */
export function useUnreadCount(enabled = true) {
  return useQuery({
    queryKey: messageKeys.unread,
    queryFn: ({ signal }) => api.get<UnreadCount>('/conversations/unread', { signal }),
    enabled,
    // The live stream refreshes it when a message or a read arrives; this is the safety net.
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
  });
}

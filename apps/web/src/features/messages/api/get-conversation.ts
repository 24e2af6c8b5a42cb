import type { Conversation } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { messageKeys } from './query-keys';

/** `GET /api/conversations/:id`: one conversation, with its car and whether I can write. */
export function useConversation(id: string) {
  return useQuery({
    queryKey: messageKeys.conversation(id),
    queryFn: ({ signal }) =>
      api.get<Conversation>(`/conversations/${encodeURIComponent(id)}`, { signal }),
    enabled: id !== '',
  });
}

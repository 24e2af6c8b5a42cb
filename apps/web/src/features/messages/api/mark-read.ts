import type { Conversation } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { messageKeys } from './query-keys';

/** `POST /api/conversations/:id/read`: everything in it is read (the other person sees "Seen"). */
export function markRead(conversationId: string) {
  return api.post<Conversation>(`/conversations/${encodeURIComponent(conversationId)}/read`);
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markRead,
    onSuccess: (conversation) => {
      queryClient.setQueryData(messageKeys.conversation(conversation._id), conversation);
      void queryClient.invalidateQueries({ queryKey: messageKeys.unread });
      void queryClient.invalidateQueries({ queryKey: messageKeys.conversations });
    },
  });
}

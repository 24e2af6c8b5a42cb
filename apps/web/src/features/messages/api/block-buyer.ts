import type { Conversation } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { messageKeys } from './query-keys';

/** `PUT` or `DELETE /api/conversations/:id/block`: the seller blocks or unblocks the buyer. */
export function setBuyerBlocked({
  conversationId,
  blocked,
}: {
  conversationId: string;
  blocked: boolean;
}) {
  const path = `/conversations/${encodeURIComponent(conversationId)}/block`;
  return blocked ? api.put<Conversation>(path) : api.delete<Conversation>(path);
}

export function useSetBuyerBlocked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBuyerBlocked,
    onSuccess: (conversation) => {
      queryClient.setQueryData(messageKeys.conversation(conversation._id), conversation);
      void queryClient.invalidateQueries({ queryKey: messageKeys.conversations });
    },
  });
}

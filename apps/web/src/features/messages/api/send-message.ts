import type { SentMessage } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { addToThread } from './get-messages';
import { messageKeys } from './query-keys';

/** `POST /api/conversations/:id/messages`: writes in a conversation. */
export function sendMessage({ conversationId, body }: { conversationId: string; body: string }) {
  return api.post<SentMessage>(`/conversations/${encodeURIComponent(conversationId)}/messages`, {
    body,
  });
}

export function useSendMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendMessage,
    onSuccess: ({ message }) => {
      addToThread(queryClient, message);
      void queryClient.invalidateQueries({ queryKey: messageKeys.conversations });
    },
    // Refused because the conversation closed meanwhile (car sold, blocked): show it as it is.
    onError: (_error, { conversationId }) =>
      queryClient.invalidateQueries({ queryKey: messageKeys.conversation(conversationId) }),
  });
}

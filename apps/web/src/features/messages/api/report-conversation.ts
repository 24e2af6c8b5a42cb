import { useMutation } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** `POST /api/conversations/:id/report`: tells the admins, who may read it while it is open. */
export function reportConversation({
  conversationId,
  reason,
}: {
  conversationId: string;
  reason: string;
}) {
  return api.post<{ acknowledged: true; insertedId: string }>(
    `/conversations/${encodeURIComponent(conversationId)}/report`,
    { reason },
  );
}

export function useReportConversation() {
  return useMutation({ mutationFn: reportConversation });
}

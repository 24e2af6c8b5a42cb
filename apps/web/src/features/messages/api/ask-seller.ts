import type { SentMessage } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { messageKeys } from './query-keys';

/** `POST /api/listings/:id/messages`: asks the seller about a car (starts the conversation). */
export function askSeller({ listingId, body }: { listingId: string; body: string }) {
  return api.post<SentMessage>(`/listings/${encodeURIComponent(listingId)}/messages`, { body });
}

export function useAskSeller() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: askSeller,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.conversations }),
  });
}

import type { Booking, OpenDisputeInput } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { bookingKeys } from './query-keys';

/** `POST /api/booked/:id/handover`: the buyer has the car; the money is released to the seller. */
export function confirmHandover(id: string): Promise<Booking> {
  return api.post<Booking>(`/booked/${encodeURIComponent(id)}/handover`);
}

/** `POST /api/booked/:id/dispute`: the buyer reports a problem; the money waits for an admin. */
export function openDispute({ id, reason }: { id: string } & OpenDisputeInput): Promise<unknown> {
  return api.post(`/booked/${encodeURIComponent(id)}/dispute`, { reason });
}

export function useConfirmHandover() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmHandover,
    // Either way: a refusal may mean the money moved meanwhile (the days passed, another tab).
    onSettled: () => queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
  });
}

export function useOpenDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: openDispute,
    onSettled: () => queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
  });
}

import type { Booking } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { bookingKeys } from './query-keys';

/** `POST /api/booked/:id/cancel`: the buyer cancels a pending booking; answers it cancelled. */
export function cancelBooking(id: string): Promise<Booking> {
  return api.post<Booking>(`/booked/${encodeURIComponent(id)}/cancel`);
}

export function useCancelBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelBooking,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
  });
}

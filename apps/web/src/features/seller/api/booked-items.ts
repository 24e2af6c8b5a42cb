import type { Booking } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** A booking of one of the seller's cars; `sold` says whether that car has been paid for. */
export type BookedItem = Booking & { sold: boolean };

export const bookedItemsQueryKey = ['seller', 'booked-items'] as const;

/** `GET /api/bookedItem`: bookings of the seller's cars (every booking, for admins). */
export function useBookedItems() {
  return useQuery({
    queryKey: bookedItemsQueryKey,
    queryFn: ({ signal }) => api.get<BookedItem[]>('/bookedItem', { signal }),
  });
}

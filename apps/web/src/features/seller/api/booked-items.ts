import type { BookedItem } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sellerKeys } from './query-keys';

/** `GET /api/bookedItem`: bookings of the seller's cars (every booking, for admins). */
export function useBookedItems() {
  return useQuery({
    queryKey: sellerKeys.bookedItems,
    queryFn: ({ signal }) => api.get<BookedItem[]>('/bookedItem', { signal }),
  });
}

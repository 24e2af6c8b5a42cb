import type { BookedItem } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sellerKeys } from './query-keys';

/**
 * `GET /api/bookedItem`: bookings of the seller's cars (every booking, for admins); `enabled`
 * false holds the request back until it is needed.
 */
export function useBookedItems({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: sellerKeys.bookedItems,
    enabled,
    queryFn: ({ signal }) => api.get<BookedItem[]>('/bookedItem', { signal }),
  });
}

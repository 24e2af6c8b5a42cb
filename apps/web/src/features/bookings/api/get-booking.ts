import type { Booking } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { bookingKeys } from './query-keys';

/** `GET /api/booked/:id`: one booking (its buyer, the car's seller, or an admin). */
export function getBooking(id: string, signal?: AbortSignal): Promise<Booking> {
  return api.get<Booking>(`/booked/${encodeURIComponent(id)}`, signal ? { signal } : {});
}

export const bookingQueryOptions = (id: string) =>
  queryOptions({
    queryKey: bookingKeys.one(id),
    queryFn: ({ signal }) => getBooking(id, signal),
  });

export function useBooking(id: string) {
  return useQuery(bookingQueryOptions(id));
}

import type { Booking } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { bookingKeys } from './query-keys';

/** `GET /api/booked?email=`: the buyer's bookings, newest first. */
export function getBookingsOf(email: string, signal?: AbortSignal): Promise<Booking[]> {
  return api.get<Booking[]>(`/booked?email=${encodeURIComponent(email)}`, signal ? { signal } : {});
}

export const bookingsOfQueryOptions = (email: string) =>
  queryOptions({
    queryKey: bookingKeys.ofEmail(email),
    queryFn: ({ signal }) => getBookingsOf(email, signal),
  });

/** `enabled: false` for people who have no bookings to ask for (not signed in, not buyers). */
export function useMyBookings(email: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...bookingsOfQueryOptions(email), enabled });
}

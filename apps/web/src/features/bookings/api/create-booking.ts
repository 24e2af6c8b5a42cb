import type { CreateBookingInput } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, ApiError, networkError } from '../../../lib/api-client';
import { bookingKeys } from './query-keys';

export interface CreateBookingResult {
  acknowledged: true;
  insertedId: string;
}

/** How long the form waits for an answer before saying so and offering to try again. */
export const BOOKING_TIMEOUT_MS = 10_000;

/**
 * `POST /api/category`: books a car (Buyer accounts; name, email and price come from the server).
 * `idempotencyKey` names this attempt: sending it again (after an answer was lost) answers the
 * booking the first one made, never a second booking.
 */
export async function createBooking({
  input,
  idempotencyKey,
}: {
  input: CreateBookingInput;
  idempotencyKey: string;
}): Promise<CreateBookingResult> {
  const timeout = AbortSignal.timeout(BOOKING_TIMEOUT_MS);
  try {
    return await api.post<CreateBookingResult>('/category', input, {
      signal: timeout,
      headers: { 'idempotency-key': idempotencyKey },
    });
  } catch (error) {
    // The API client passes an aborted request on as it is; here it means no answer came in time.
    if (timeout.aborted) throw networkError();
    throw error;
  }
}

export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBooking,
    // Sent even when the browser says it is offline, so the form can say so at once; paused
    // (the default), it would wait without a word and book whenever the network came back.
    networkMode: 'always',
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
    // Booked already (in another tab, or by an attempt whose answer was lost): pages learn it.
    onError: (error) =>
      error instanceof ApiError && error.bookingId
        ? queryClient.invalidateQueries({ queryKey: bookingKeys.all })
        : undefined,
  });
}

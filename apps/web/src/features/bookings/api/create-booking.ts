import type { CreateBookingInput } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { bookingKeys } from './query-keys';

export interface CreateBookingResult {
  acknowledged: true;
  insertedId: string;
}

/** `POST /api/category`: books a car (Buyer accounts; name, email and price come from the server). */
export function createBooking(input: CreateBookingInput): Promise<CreateBookingResult> {
  return api.post<CreateBookingResult>('/category', input);
}

export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBooking,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
  });
}

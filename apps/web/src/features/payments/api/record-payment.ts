import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { bookingKeys } from '../../bookings';
import { listingKeys } from '../../listings';

export interface RecordedPayment {
  acknowledged: true;
  insertedId: string;
  bookingId: string;
  transactionId: string;
  paidAt: string;
}

/**
 * `POST /api/payments`: after the processor confirmed the card, the server checks with it and
 * marks the booking paid and the car sold. Safe to send again.
 */
export function recordPayment(input: {
  bookingId: string;
  transactionId: string;
}): Promise<RecordedPayment> {
  return api.post<RecordedPayment>('/payments', input);
}

export function useRecordPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordPayment,
    // The booking, the buyer's bookings and the car's pages all change with a sale (or a refund);
    // the home page reloads its counts whenever it shows them. Not awaited: the page shows the
    // outcome at once rather than after the refetches.
    onSettled: () => {
      for (const queryKey of [bookingKeys.all, listingKeys.categoryPages, listingKeys.cars]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}

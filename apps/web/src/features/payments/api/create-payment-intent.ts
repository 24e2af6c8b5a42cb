import type { PaymentIntentResult } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { paymentKeys } from './query-keys';

/**
 * `POST /api/create-payment-intent`: holds the car for this buyer and answers the client secret
 * the card form confirms. Asking again while the payment is open answers the same intent.
 */
export function createPaymentIntent(bookingId: string): Promise<PaymentIntentResult> {
  return api.post<PaymentIntentResult>('/create-payment-intent', { bookingId });
}

/**
 * The payment intent of a booking, asked for when the payment page opens (`enabled`). A query
 * rather than a mutation: the page reads it like data, and the server answers the same open
 * intent when asked twice. Never retried or refreshed by itself: a 409 (another buyer is
 * paying) is shown as it is, and the page asks again after a declined card to renew the hold.
 */
export function usePaymentIntent(bookingId: string, enabled: boolean) {
  return useQuery({
    queryKey: paymentKeys.intent(bookingId),
    queryFn: () => createPaymentIntent(bookingId),
    enabled,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

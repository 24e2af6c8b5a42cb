import type { PaymentIntentResult } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { paymentKeys } from './query-keys';

/**
 * `POST /api/create-payment-intent`: answers the client secret the card form confirms (it holds
 * nothing: sending the form does). Refused (409, with `reservedUntil`) while another buyer's
 * card is being confirmed. Asking again while the payment is open answers the same intent.
 */
export function createPaymentIntent(bookingId: string): Promise<PaymentIntentResult> {
  return api.post<PaymentIntentResult>('/create-payment-intent', { bookingId });
}

/**
 * The payment intent of a booking, asked for when the payment page opens (`enabled`). A query
 * rather than a mutation: the page reads it like data, and the server answers the same open
 * intent when asked twice. Never retried or refreshed by itself: a 409 (another buyer is
 * paying) is shown as it is, and the page asks again when that hold ends and after a declined
 * card (the same open intent comes back, or a new one if the processor closed it).
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

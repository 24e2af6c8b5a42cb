import type { PaymentConfig } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { paymentKeys } from './query-keys';

/** `GET /api/payments/config`: which card processor to use, and how long a car is held. */
export function getPaymentConfig(signal?: AbortSignal): Promise<PaymentConfig> {
  return api.get<PaymentConfig>('/payments/config', signal ? { signal } : {});
}

export const paymentConfigQueryOptions = queryOptions({
  queryKey: paymentKeys.config,
  queryFn: ({ signal }) => getPaymentConfig(signal),
  staleTime: Infinity,
});

export function usePaymentConfig() {
  return useQuery(paymentConfigQueryOptions);
}

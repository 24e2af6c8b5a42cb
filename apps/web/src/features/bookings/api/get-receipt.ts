import type { Receipt } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { bookingKeys } from './query-keys';

/** `GET /api/booked/:id/receipt`: a paid booking's receipt (only for the buyer who paid). */
export function getReceipt(id: string, signal?: AbortSignal): Promise<Receipt> {
  return api.get<Receipt>(`/booked/${encodeURIComponent(id)}/receipt`, signal ? { signal } : {});
}

export const receiptQueryOptions = (id: string) =>
  queryOptions({
    queryKey: bookingKeys.receipt(id),
    queryFn: ({ signal }) => getReceipt(id, signal),
  });

export function useReceipt(id: string) {
  return useQuery(receiptQueryOptions(id));
}

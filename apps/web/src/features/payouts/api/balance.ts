import type { Balance } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { payoutKeys } from './query-keys';

/** `GET /api/my/balance`: the seller's money, pending hand-over, ready to pay out, paid out. */
export function useBalance() {
  return useQuery({
    queryKey: payoutKeys.balance,
    queryFn: ({ signal }) => api.get<Balance>('/my/balance', { signal }),
  });
}

import type { PayoutPage } from '@carmarket/shared';
import { useInfiniteQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { payoutKeys } from './query-keys';

/** `GET /api/my/payouts`: the seller's payouts, newest first, a page at a time. */
export function usePayouts() {
  return useInfiniteQuery({
    queryKey: payoutKeys.list,
    queryFn: ({ pageParam, signal }) =>
      api.get<PayoutPage>(
        `/my/payouts${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
        { signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

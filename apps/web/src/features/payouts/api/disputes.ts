import type { Dispute, DisputePage, DisputeStatus, ResolveDisputeInput } from '@carmarket/shared';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { bookingKeys } from '../../bookings';
import { statsKeys } from '../../dashboard-home';
import { payoutKeys } from './query-keys';

/** `GET /api/disputes?status=`: disputes of a status, oldest first, a page at a time (admins). */
export function useDisputes(status: DisputeStatus) {
  return useInfiniteQuery({
    queryKey: payoutKeys.disputesOf(status),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ status });
      if (pageParam) query.set('cursor', pageParam);
      return api.get<DisputePage>(`/disputes?${query}`, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * `POST /api/disputes/:id/resolve`: an admin's ruling, the money to the seller or back. Answers
 * the dispute: `resolved`, or `resolving` while the provider has not finished a refund.
 */
export function useResolveDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: { id: string } & ResolveDisputeInput) =>
      api.post<Dispute>(`/disputes/${encodeURIComponent(id)}/resolve`, input),
    // Either way: a refusal may mean another admin ruled meanwhile.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: payoutKeys.all }),
        queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
        queryClient.invalidateQueries({ queryKey: statsKeys.all }),
      ]),
  });
}

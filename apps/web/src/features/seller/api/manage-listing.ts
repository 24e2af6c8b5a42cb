import type { UpdateListingInput } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sellerKeys } from './query-keys';
import { listingKeys } from '../../listings';

type Acknowledged = { acknowledged: true };

/** `PUT /api/listings/:id`: changes the fields sent (available or withdrawn cars only). */
export function updateListing({ id, changes }: { id: string; changes: UpdateListingInput }) {
  return api.put<Acknowledged>(`/listings/${id}`, changes);
}

/** `POST /api/listings/:id/withdraw`: takes an available car off sale; open bookings close. */
export function withdrawListing(id: string) {
  return api.post<Acknowledged>(`/listings/${id}/withdraw`);
}

/**
 * `POST /api/listings/:id/relist`: puts a withdrawn car back on sale, as it was; the buyers who
 * saved it are told.
 */
export function relistListing(id: string) {
  return api.post<Acknowledged>(`/listings/${id}/relist`);
}

/** `PUT` or `DELETE /api/listings/:id/advertise`: the home page's Advertised section. */
export function setAdvertised({ id, advertised }: { id: string; advertised: boolean }) {
  const path = `/listings/${id}/advertise`;
  return advertised ? api.put<Acknowledged>(path) : api.delete<Acknowledged>(path);
}

/**
 * A change to one of the seller's cars; its list, its bookings and the pages that show cars load
 * again afterwards (the home page reloads its lists whenever it shows them).
 */
function useListingMutation<T>(mutationFn: (input: T) => Promise<Acknowledged>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sellerKeys.listings }),
        queryClient.invalidateQueries({ queryKey: sellerKeys.bookedItems }),
        queryClient.invalidateQueries({ queryKey: listingKeys.categoryPages }),
        queryClient.invalidateQueries({ queryKey: listingKeys.cars }),
      ]),
  });
}

export const useUpdateListing = () => useListingMutation(updateListing);
export const useWithdrawListing = () => useListingMutation(withdrawListing);
export const useRelistListing = () => useListingMutation(relistListing);
export const useSetAdvertised = () => useListingMutation(setAdvertised);

import type { UpdateListingInput } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { bookedItemsQueryKey } from './booked-items';
import { myListingsQueryKey } from './my-listings';

type Acknowledged = { acknowledged: true };

/** `PUT /api/listings/:id`: changes the fields sent (available or withdrawn cars only). */
export function updateListing({ id, changes }: { id: string; changes: UpdateListingInput }) {
  return api.put<Acknowledged>(`/listings/${id}`, changes);
}

/** `POST /api/listings/:id/withdraw`: takes an available car off sale; open bookings close. */
export function withdrawListing(id: string) {
  return api.post<Acknowledged>(`/listings/${id}/withdraw`);
}

/** `PUT` or `DELETE /api/listings/:id/advertise`: the home page's Advertised section. */
export function setAdvertised({ id, advertised }: { id: string; advertised: boolean }) {
  const path = `/listings/${id}/advertise`;
  return advertised ? api.put<Acknowledged>(path) : api.delete<Acknowledged>(path);
}

/** A change to one of the seller's cars; its list (and its bookings) load again afterwards. */
function useListingMutation<T>(mutationFn: (input: T) => Promise<Acknowledged>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: myListingsQueryKey }),
        queryClient.invalidateQueries({ queryKey: bookedItemsQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['advertised'] }),
      ]),
  });
}

export const useUpdateListing = () => useListingMutation(updateListing);
export const useWithdrawListing = () => useListingMutation(withdrawListing);
export const useSetAdvertised = () => useListingMutation(setAdvertised);

import type { UpdateListingInput } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { carStatsKey } from './car-stats';
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
 * A change to one of the seller's cars (`idOf` names it); its list, its figures, its bookings and
 * the pages that show cars load again afterwards (the home page reloads its lists whenever it
 * shows them). The caller's own callbacks (the toast, the dialog closing, focus) wait for the
 * car and the seller's list only, which the pages it is changed from show; its figures, bookings,
 * similar cars and category pages load behind, so a busy server does not hold the toast back.
 */
function useListingMutation<T>(
  mutationFn: (input: T) => Promise<Acknowledged>,
  idOf: (input: T) => string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: (_data, _error, input) => {
      const id = idOf(input);
      void queryClient.invalidateQueries({ queryKey: carStatsKey(id) });
      void queryClient.invalidateQueries({ queryKey: sellerKeys.bookedItems });
      void queryClient.invalidateQueries({ queryKey: listingKeys.categoryPages });
      void queryClient.invalidateQueries({ queryKey: listingKeys.cars });
      // Joins the car's load just started (not a second one), and waits for it.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: sellerKeys.listings }),
        queryClient.invalidateQueries(
          { queryKey: listingKeys.car(id), exact: true },
          { cancelRefetch: false },
        ),
      ]);
    },
  });
}

export const useUpdateListing = () => useListingMutation(updateListing, (input) => input.id);
export const useWithdrawListing = () => useListingMutation(withdrawListing, (id) => id);
export const useRelistListing = () => useListingMutation(relistListing, (id) => id);
export const useSetAdvertised = () => useListingMutation(setAdvertised, (input) => input.id);

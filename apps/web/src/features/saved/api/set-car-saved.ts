import type { ListingCard, SavedCar } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { savedKeys } from './query-keys';

export interface SetCarSavedInput {
  car: ListingCard;
  saved: boolean;
  /** Undoes the change before: its toast has no Undo of its own. */
  undo?: boolean;
}

/** `PUT` or `DELETE /api/saved-cars/:listingId`: saves a car, or forgets it (again: no change). */
export function setCarSaved({ car, saved }: SetCarSavedInput) {
  const path = `/saved-cars/${encodeURIComponent(car._id)}`;
  return saved
    ? api.put<{ listingId: string; saved: boolean }>(path)
    : api.delete<{ listingId: string; saved: boolean }>(path);
}

const mutationKey = [...savedKeys.cars, 'set'] as const;

/** The list with the car's entry put first, or taken out when `entry` is null. */
function withEntry(cars: SavedCar[], listingId: string, entry: SavedCar | null): SavedCar[] {
  const others = cars.filter((saved) => saved.listingId !== listingId);
  return entry ? [entry, ...others] : others;
}

/** What the server will answer for a car saved now, shown until it does. */
const entryOf = (car: ListingCard): SavedCar => ({
  listingId: car._id,
  savedAt: new Date().toISOString(),
  priceAtSaving: car.reprice,
  backOnSaleAt: null,
  car,
});

/**
 * Saves or forgets a car at once on screen (every heart and the saved cars list), then asks the
 * server; says so in a toast with Undo, or puts the car back as it was and shows why it failed
 * (e.g. the 500 saved cars limit).
 */
export function useSetCarSaved() {
  const queryClient = useQueryClient();
  const setEntry = (listingId: string, entry: SavedCar | null) =>
    queryClient.setQueryData<SavedCar[]>(
      savedKeys.cars,
      (cars) => cars && withEntry(cars, listingId, entry),
    );

  const mutation = useMutation({
    mutationKey,
    // Sent one after another, in the order clicked (the screen changes at once either way): an
    // Undo's PUT still on its way and the Remove after it could otherwise reach the server the
    // other way round, leaving the car saved.
    scope: { id: 'saved-cars' },
    mutationFn: setCarSaved,
    onMutate: async ({ car, saved }) => {
      await queryClient.cancelQueries({ queryKey: savedKeys.cars });
      const before =
        queryClient
          .getQueryData<SavedCar[]>(savedKeys.cars)
          ?.find((entry) => entry.listingId === car._id) ?? null;
      setEntry(car._id, saved ? (before ?? entryOf(car)) : null);
      return { before };
    },
    onError: (error, { car }, context) => {
      setEntry(car._id, context?.before ?? null);
      toast.error(errorMessage(error));
    },
    onSuccess: (_answer, { car, saved, undo }) => {
      const message = saved ? 'Saved to your cars' : 'Removed from saved cars';
      if (undo) toast.success(message);
      else {
        toast.success(message, {
          label: 'Undo',
          onClick: () => mutation.mutate({ car, saved: !saved, undo: true }),
        });
      }
    },
    // After the last of several quick clicks: an earlier answer would undo later clicks on screen.
    onSettled: () =>
      queryClient.isMutating({ mutationKey }) === 1
        ? queryClient.invalidateQueries({ queryKey: savedKeys.cars })
        : undefined,
  });
  return mutation;
}

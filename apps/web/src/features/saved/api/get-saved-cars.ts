import type { SavedCar } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { savedKeys } from './query-keys';

/** `GET /api/saved-cars`: the buyer's saved cars as they are now, the latest saved first. */
export const savedCarsQueryOptions = queryOptions({
  queryKey: savedKeys.cars,
  queryFn: ({ signal }) => api.get<SavedCar[]>('/saved-cars', { signal }),
});

export function useSavedCars() {
  return useQuery(savedCarsQueryOptions);
}

// One function for every heart on a page, so the set is made once per answer, not per card.
const idsOf = (cars: SavedCar[]) => new Set(cars.map((saved) => saved.listingId));

/** The ids of the buyer's saved cars, for the hearts on car cards; asked only when `enabled`. */
export function useSavedCarIds(enabled: boolean) {
  return useQuery({ ...savedCarsQueryOptions, select: idsOf, enabled });
}

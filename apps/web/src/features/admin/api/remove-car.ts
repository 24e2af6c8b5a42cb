import type { RemoveCarFormInput } from '@carmarket/shared';
import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { api } from '../../../lib/api-client';
import { adminKeys } from './query-keys';
import { statsKeys } from '../../dashboard-home';
import { listingKeys } from '../../listings';

const IDLE = { isPending: false, error: null };

export type RemoveCarInput = { id: string } & RemoveCarFormInput;

/** `POST /api/listings/:id/remove`: takes a car off the site; its seller is mailed the reason. */
export function removeCar({ id, reason }: RemoveCarInput) {
  return api.post<{ acknowledged: true }>(`/listings/${id}/remove`, { reason });
}

/**
 * Removing a car; the pages that show cars, the admin's lists and the figures load again. Takes
 * the query client from its caller and imports nothing of react-query at run time, unlike other
 * changes (useMutation, useQueryClient): reached from the car page's lazily loaded admin button,
 * either made Rolldown move react-query's modules out of the entry chunk, a request and up to
 * 0.8 KB more on the home page. The same few states, kept here.
 */
export function useRemoveCar(queryClient: QueryClient) {
  const [state, setState] = useState<{ isPending: boolean; error: unknown }>(IDLE);

  function refresh() {
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: listingKeys.cars }),
      queryClient.invalidateQueries({ queryKey: listingKeys.categoryPages }),
      queryClient.invalidateQueries({ queryKey: adminKeys.userCars }),
      queryClient.invalidateQueries({ queryKey: adminKeys.audit }),
      queryClient.invalidateQueries({ queryKey: statsKeys.all }),
    ]);
  }

  function mutate(
    input: RemoveCarInput,
    { onSuccess, onError }: { onSuccess?: () => void; onError?: (error: unknown) => void } = {},
  ) {
    setState({ isPending: true, error: null });
    void removeCar(input)
      .then(
        () => {
          setState(IDLE);
          onSuccess?.();
        },
        (error: unknown) => {
          setState({ isPending: false, error });
          onError?.(error);
        },
      )
      // Either way: a refusal may mean the car changed meanwhile (sold, removed by another admin).
      .finally(refresh);
  }

  return {
    mutate,
    reset: () => setState(IDLE),
    isPending: state.isPending,
    isError: state.error !== null,
    error: state.error,
  };
}

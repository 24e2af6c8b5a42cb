import type { MutateOptions, UseMutationResult } from '@tanstack/react-query';
import { useRef } from 'react';

/**
 * A mutation's `mutate` that ignores calls while one is in flight. `isPending` (which disables a
 * dialog's button) reaches the page a tick late, as React Query batches its notices, so a
 * double click would otherwise send the request twice.
 */
export function useMutateOnce<TData, TError, TVariables, TContext>(
  mutation: UseMutationResult<TData, TError, TVariables, TContext>,
) {
  const inFlight = useRef(false);
  return (
    variables: TVariables,
    options?: MutateOptions<TData, TError, TVariables, TContext>,
  ): void => {
    if (inFlight.current) return;
    inFlight.current = true;
    mutation.mutate(variables, {
      ...options,
      onSettled: (...args) => {
        inFlight.current = false;
        return options?.onSettled?.(...args);
      },
    });
  };
}

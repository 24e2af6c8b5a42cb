import { QueryClient } from '@tanstack/react-query';

import { ApiError } from './api-client';

const MAX_RETRIES = 3;
const MAX_RETRY_DELAY_MS = 30_000;

/** Waits 1 s, 2 s, 4 s ... between attempts, never more than 30 s (spec section 9). */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, MAX_RETRY_DELAY_MS);
}

/** Retries failed fetches, except answers that another try cannot change (4xx). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

/** One query client per browser tab (and one per prerendered page). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Unused data is kept 5 minutes (spec section 9).
        gcTime: 5 * 60_000,
        staleTime: 30_000,
        retry: shouldRetry,
        retryDelay,
      },
    },
  });
}

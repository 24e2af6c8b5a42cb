import { QueryClient } from '@tanstack/react-query';

import { shouldRetry } from './should-retry';

/**
 * One query client per browser tab (and one per prerendered page). Spec section 9's retries 1 s,
 * 2 s, 4 s ... apart (at most 30 s) are React Query's own default, left unset: the entry carries
 * no copy of it (the tests check the waits).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Unused data is kept 5 minutes (spec section 9): React Query's default in a browser, but
        // not on a server (the prerender), where it keeps everything.
        gcTime: 5 * 60_000,
        staleTime: 30_000,
        retry: shouldRetry,
      },
    },
  });
}

import type { QueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sessionQueryKey } from '../use-session';

/** `POST /api/auth/sign-out` (better-auth): ends the session and clears its cookie. */
export function endSession(): Promise<unknown> {
  return api.post('/auth/sign-out', {});
}

/** Drops everything cached for the person who was signed in (see session-keeper's forgetSignedIn). */
export function clearSignedInCache(queryClient: QueryClient): void {
  queryClient.setQueryData(sessionQueryKey, null);
  // Nothing cached while signed in may be shown to whoever uses this browser next.
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
}

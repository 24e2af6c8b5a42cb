import type { QueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { stopKeepingSession } from '../session-keeper';
import { sessionQueryKey } from '../use-session';

/** `POST /api/auth/sign-out` (better-auth): ends the session and clears its cookie. */
export function endSession(): Promise<unknown> {
  return api.post('/auth/sign-out', {});
}

/** Forgets the person who was signed in: their token and everything cached for them. */
export function forgetSignedIn(queryClient: QueryClient): void {
  stopKeepingSession();
  queryClient.setQueryData(sessionQueryKey, null);
  // Nothing cached while signed in may be shown to whoever uses this browser next.
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
}

import type { QueryClient } from '@tanstack/react-query';

import { api, apiAuth, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { sessionQueryKey } from '../use-session';

/** `POST /api/auth/sign-out` (better-auth): ends the session and clears its cookie. */
export function endSession(): Promise<unknown> {
  return api.post('/auth/sign-out', {});
}

/** Forgets the person who was signed in: their token and everything cached for them. */
export function forgetSignedIn(queryClient: QueryClient): void {
  apiAuth.token = undefined;
  queryClient.setQueryData(sessionQueryKey, null);
  // Nothing cached while signed in may be shown to whoever uses this browser next.
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
}

/** Signs out from the navbar's button; says whether it worked. */
export async function signOut(queryClient: QueryClient): Promise<boolean> {
  try {
    await endSession();
  } catch (error) {
    toast.error(`Could not sign you out. ${errorMessage(error)}`);
    return false;
  }
  forgetSignedIn(queryClient);
  toast.success('You are signed out.');
  return true;
}

import type { QueryClient } from '@tanstack/react-query';

import { api, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { sessionQueryKey } from '../use-session';

/** `POST /api/auth/sign-out` (better-auth), then forgets everything cached for this person. */
export async function signOut(queryClient: QueryClient): Promise<boolean> {
  try {
    await api.post('/auth/sign-out', {});
  } catch (error) {
    toast.error(`Could not sign you out. ${errorMessage(error)}`);
    return false;
  }
  queryClient.setQueryData(sessionQueryKey, null);
  // Nothing cached while signed in may be shown to whoever uses this browser next.
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
  toast.success('You are signed out.');
  return true;
}

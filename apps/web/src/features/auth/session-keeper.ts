/**
 * The signed-in side of spec section 9, loaded only while someone is signed in:
 *
 * - a bearer token from `GET /api/jwt`, kept in memory (never in storage) and handed to the API
 *   client, refreshed 5 minutes before it expires; a failed refresh is tried again after 30 s,
 *   then twice as long each time, up to 16 minutes;
 * - a 401 `user-disabled` or `user-token-expired` on any call signs the person out, says why and
 *   sends them to sign in.
 */
import type { QueryClient } from '@tanstack/react-query';

import { apiAuth, ApiError } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { getAccessToken } from './api/get-access-token';
import { endSession, forgetSignedIn } from './api/sign-out';
import { sessionQueryKey } from './use-session';

export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;
/** The spec counts a token as expired 30 s before it really is. */
export const EXPIRED_BEFORE_MS = 30_000;
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 16 * 60_000;

/** How long to wait before the next refresh, for a token that expires at `expiresAt`. */
export function refreshDelay(expiresAt: number, now = Date.now()): number {
  const left = expiresAt - now;
  // Short-lived tokens (a server set to a few minutes) are refreshed halfway through instead.
  return Math.max(left - REFRESH_BEFORE_EXPIRY_MS, left / 2, 0);
}

/** The wait after the `failures`-th failed refresh in a row: 30 s, 1 min, 2 min ... 16 min. */
export function retryDelay(failures: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(failures - 1, 0), MAX_RETRY_MS);
}

/**
 * Starts keeping the session of `email`; returns the function that stops (on sign-out, or when
 * another person signs in).
 */
export function keepSession(
  email: string,
  queryClient: QueryClient,
  goTo: (path: string) => void,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let stopped = false;

  function schedule(delay: number) {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), delay);
  }

  async function refresh() {
    try {
      const { accessToken, expiresAt } = await getAccessToken(email);
      if (stopped) return;
      const expires = Date.parse(expiresAt);
      apiAuth.token = accessToken;
      apiAuth.tokenUntil = expires - EXPIRED_BEFORE_MS;
      failures = 0;
      schedule(refreshDelay(expires));
    } catch (error) {
      if (stopped) return;
      if (error instanceof ApiError && error.code === 'unauthenticated') {
        // The session cookie no longer works (it expired, or a password reset ended it): ask
        // again who is signed in, and the pages follow.
        void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
        return;
      }
      failures += 1;
      schedule(retryDelay(failures));
    }
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    apiAuth.token = undefined;
    if (apiAuth.onSessionEnd === handleSessionEnd) apiAuth.onSessionEnd = undefined;
  }

  function handleSessionEnd(error: ApiError) {
    if (stopped) return;
    stop();
    // Ends the cookie session too, should it still work; failing is fine.
    endSession().catch(() => undefined);
    forgetSignedIn(queryClient);
    toast.error(error.message);
    goTo('/login');
  }

  apiAuth.onSessionEnd = handleSessionEnd;
  void refresh();
  return stop;
}

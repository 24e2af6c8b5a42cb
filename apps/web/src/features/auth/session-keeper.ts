/**
 * The signed-in side of spec section 9, loaded only while someone is signed in:
 *
 * - a bearer token from `GET /api/jwt`, kept in memory (never in storage), sent by the API client
 *   with every request and refreshed 5 minutes before it expires; a failed refresh is tried again
 *   after 30 s, then twice as long each time, up to 16 minutes;
 * - a 401 `user-disabled` or `user-token-expired` on any call signs the person out, says why and
 *   sends them to sign in.
 */
import type { QueryClient } from '@tanstack/react-query';

import { ApiError, apiHooks } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { getAccessToken } from './api/get-access-token';
import { clearSignedInCache, endSession } from './api/end-session';
import { loginPath } from './login-path';
import { sessionQueryKey } from './use-session';

export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;
/** The spec counts a token as expired 30 s before it really is; it is not sent after that. */
export const EXPIRED_BEFORE_MS = 30_000;
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 16 * 60_000;

/** How long to wait before refreshing a token that expires at `expiresAt`. */
export function refreshDelay(expiresAt: number, now = Date.now()): number {
  const left = expiresAt - now;
  // A server set to issue tokens of a few minutes gets them refreshed halfway instead.
  return Math.max(left - REFRESH_BEFORE_EXPIRY_MS, left / 2, 0);
}

/** The wait after the `failures`-th failed refresh in a row: 30 s, 1 min, 2 min ... 16 min. */
export function retryDelay(failures: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(failures - 1, 0), MAX_RETRY_MS);
}

/** The answers that mean the person is signed out now, whatever the page was doing. */
export function endsSession(error: ApiError): boolean {
  return (
    error.status === 401 && (error.code === 'user-disabled' || error.code === 'user-token-expired')
  );
}

let stopCurrent: (() => void) | undefined;

/** Forgets the token and stops refreshing it (on sign-out; keepSession's return does the same). */
export function stopKeepingSession(): void {
  stopCurrent?.();
}

/** Forgets the person who was signed in: their token and everything cached for them. */
export function forgetSignedIn(queryClient: QueryClient): void {
  stopKeepingSession();
  clearSignedInCache(queryClient);
}

/**
 * Starts keeping the session of `email` (one person at a time); returns the function that stops.
 * `goTo` moves the app to another page.
 */
export function keepSession(
  email: string,
  queryClient: QueryClient,
  goTo: (path: string) => void,
): () => void {
  stopCurrent?.();
  let token: { value: string; until: number } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let stopped = false;

  function schedule(delay: number) {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), delay);
  }

  async function refresh() {
    try {
      const answer = await getAccessToken(email);
      if (stopped) return;
      const expiresAt = Date.parse(answer.expiresAt);
      token = { value: answer.accessToken, until: expiresAt - EXPIRED_BEFORE_MS };
      failures = 0;
      schedule(refreshDelay(expiresAt));
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
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    if (apiHooks.headers === headers) apiHooks.headers = undefined;
    if (apiHooks.onError === handleError) apiHooks.onError = undefined;
    if (stopCurrent === stop) stopCurrent = undefined;
  }

  function headers(): Record<string, string> {
    // Checked on every request: a timer can run late (a laptop asleep), a stale token must not go.
    return token && Date.now() < token.until ? { authorization: `Bearer ${token.value}` } : {};
  }

  function handleError(error: ApiError) {
    if (stopped || !endsSession(error)) return;
    stop();
    // Ends the cookie session too, should it still work; failing is fine.
    endSession().catch(() => undefined);
    forgetSignedIn(queryClient);
    toast.error(error.message);
    // The same address RequireAuth sends signed-out people to: back here after signing in.
    goTo(loginPath(`${window.location.pathname}${window.location.search}`));
  }

  apiHooks.headers = headers;
  apiHooks.onError = handleError;
  stopCurrent = stop;
  void refresh();
  return stop;
}

import { api } from '../../../lib/api-client';
import { loginPath } from '../login-path';

/** Where Google sends people back to; the dashboard then finishes the sign-in. */
export const GOOGLE_RETURN_PATH = '/dashboard?google=1';

/**
 * `POST /api/auth/sign-in/social` (better-auth): the address of Google's sign-in page. `next`,
 * a same-site path, is where the dashboard sends people once the sign-in is finished. When the
 * server has no Google credentials it answers 404 `not-found`.
 */
export function startGoogleSignIn(
  next: string | null,
): Promise<{ url: string; redirect: boolean }> {
  return api.post<{ url: string; redirect: boolean }>('/auth/sign-in/social', {
    provider: 'google',
    callbackURL: next
      ? `${GOOGLE_RETURN_PATH}&next=${encodeURIComponent(next)}`
      : GOOGLE_RETURN_PATH,
    // better-auth adds `error=<code>` when Google or the person cancels.
    errorCallbackURL: loginPath(next ?? undefined),
  });
}

/** `POST /api/google/user`: after a Google sign-in, an account without a role becomes a Buyer. */
export function registerGoogleUser(user: { name?: string; email: string }): Promise<unknown> {
  return api.post('/google/user', user);
}

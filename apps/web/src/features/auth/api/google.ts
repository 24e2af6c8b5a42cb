import { api } from '../../../lib/api-client';

/** Where Google sends people back to; the dashboard then finishes the sign-in. */
export const GOOGLE_RETURN_PATH = '/dashboard?google=1';

/**
 * `POST /api/auth/sign-in/social` (better-auth): the address of Google's sign-in page. When the
 * server has no Google credentials it answers a 4xx (404 `not-found`).
 */
export function startGoogleSignIn(): Promise<{ url: string; redirect: boolean }> {
  return api.post<{ url: string; redirect: boolean }>('/auth/sign-in/social', {
    provider: 'google',
    callbackURL: GOOGLE_RETURN_PATH,
    // better-auth adds `?error=<code>` when Google or the person cancels.
    errorCallbackURL: '/login',
  });
}

/** `POST /api/google/user`: after a Google sign-in, an account without a role becomes a Buyer. */
export function registerGoogleUser(user: { name?: string; email: string }): Promise<unknown> {
  return api.post('/google/user', user);
}

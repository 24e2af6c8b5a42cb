import { api } from '../../../lib/api-client';
import { loginPath } from '../login-path';

/**
 * `POST /api/auth/sign-in/magic-link` (better-auth): mails a link that signs in once, within 15
 * minutes, and lands on `next` (or the home page). The answer is the same whether or not the
 * address has an account; a failed link comes back to the sign-in page with `link=failed`.
 */
export function requestSignInLink(email: string, next: string | null): Promise<unknown> {
  const back = loginPath(next);
  return api.post('/auth/sign-in/magic-link', {
    email,
    callbackURL: next ?? '/',
    errorCallbackURL: `${back}${back.includes('?') ? '&' : '?'}link=failed`,
  });
}

import { api } from '../../../lib/api-client';

/**
 * `POST /api/auth/sign-up/email` (better-auth): creates the account and signs it in (sets the
 * session cookie). The account has no role until `setRole` (`POST /api/user`). Fails with
 * `email-already-in-use` (409), `invalid-email`, `weak-password` or `validation-failed` (400,
 * with the field).
 */
export function signUpWithEmail(account: {
  name: string;
  email: string;
  password: string;
}): Promise<unknown> {
  return api.post('/auth/sign-up/email', account);
}

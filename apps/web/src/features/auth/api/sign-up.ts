import { api } from '../../../lib/api-client';

/**
 * `POST /api/auth/sign-up/email` (better-auth): creates the account and signs it in (sets the
 * session cookie). The account has no role until `setRole` (`POST /api/user`). An address that
 * has an account answers alike but begins no session, and its owner is mailed (decision 044).
 * Fails with `invalid-email`, `weak-password` or `validation-failed` (400, with the field), or
 * 429 when too many accounts were made from the network.
 */
export function signUpWithEmail(account: {
  name: string;
  email: string;
  password: string;
}): Promise<unknown> {
  return api.post('/auth/sign-up/email', account);
}

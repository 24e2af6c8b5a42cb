import type { SignInFormInput } from '@carmarket/shared';

import { api } from '../../../lib/api-client';

/**
 * `POST /api/auth/sign-in/email` (better-auth): sets the session cookie. Fails with
 * `wrong-password` (401, also for an unknown email), `user-disabled` (403) or
 * `too-many-requests` (429, its message says when to try again).
 */
export function signInWithEmail(credentials: SignInFormInput): Promise<unknown> {
  return api.post('/auth/sign-in/email', credentials);
}

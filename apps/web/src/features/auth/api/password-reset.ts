import { api } from '../../../lib/api-client';

/**
 * `POST /api/auth/request-password-reset`: mails a link that comes back to `/reset-password`
 * with `?token=` (or `?error=INVALID_TOKEN`). The answer is the same whether or not the email has
 * an account. Limited per email and per IP (`too-many-requests`).
 */
export function requestPasswordReset(email: string): Promise<unknown> {
  return api.post('/auth/request-password-reset', { email, redirectTo: '/reset-password' });
}

/**
 * `POST /api/auth/reset-password`: sets the new password and ends every session of the account.
 * Fails with `weak-password` (field `newPassword`) or `invalid-action-code` (a used or expired
 * link).
 */
export function resetPassword(newPassword: string, token: string): Promise<unknown> {
  return api.post('/auth/reset-password', { newPassword, token });
}

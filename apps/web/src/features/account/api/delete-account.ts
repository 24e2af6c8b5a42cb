import { useMutation } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

export interface DeleteAccountAnswer {
  success: boolean;
  /** "User deleted", or "Verification email sent" (an account without a password). */
  message: string;
}

/**
 * `POST /api/auth/delete-user` (better-auth, behind our checks): with the password, or the
 * token of the link mailed to an account without one (an empty body asks for that link).
 * Deleting cancels open bookings, takes the person's cars off sale, and signs them out.
 */
export function deleteAccount(
  body: { password: string } | { token: string } | Record<string, never>,
): Promise<DeleteAccountAnswer> {
  return api.post('/auth/delete-user', body);
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}

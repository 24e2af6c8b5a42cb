import { useMutation } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/**
 * `POST /api/auth/change-email` (better-auth): mails a link to the new address and a notice to
 * the old one; the address changes when the link is opened. The answer is the same whether or
 * not the new address has an account. An account with a password gives it.
 */
export function changeEmail(body: {
  newEmail: string;
  currentPassword?: string;
}): Promise<{ status: boolean }> {
  return api.post('/auth/change-email', body);
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}

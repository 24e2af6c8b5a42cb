import { useMutation } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/**
 * `POST /api/auth/send-verification-email` (better-auth): mails the link that confirms the
 * signed-in person's address again. Limited per address and per IP (429 `too-many-requests`).
 */
export function sendVerificationEmail(email: string): Promise<{ status: boolean }> {
  return api.post('/auth/send-verification-email', { email });
}

export function useSendVerificationEmail() {
  return useMutation({ mutationFn: sendVerificationEmail });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sessionQueryKey } from '../../auth';
import { accountKeys } from './query-keys';

/**
 * `POST /api/auth/change-password` (better-auth): needs the current password (400
 * `wrong-password`, field `currentPassword`). Every other session ends, and this browser gets a
 * new one: the session is read again at once, so the bearer token of the old one is dropped
 * before it is refused.
 */
export function changePassword(input: {
  currentPassword: string;
  newPassword: string;
}): Promise<unknown> {
  return api.post('/auth/change-password', input);
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: async () => {
      await queryClient.refetchQueries({ queryKey: sessionQueryKey });
      await queryClient.invalidateQueries({ queryKey: accountKeys.devices() });
    },
  });
}

import type { UpdateProfileInput } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sessionQueryKey } from '../../auth';

/**
 * `POST /api/auth/update-user` (better-auth, behind our checks): name, phone (null removes it)
 * and profile photo (the address of one of your uploads; null removes it). The session is read
 * again, so the header and the dashboard show the change.
 */
export function updateProfile(input: UpdateProfileInput): Promise<{ status: boolean }> {
  return api.post('/auth/update-user', input);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  });
}

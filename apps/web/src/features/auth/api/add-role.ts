import type { AddRoleInput, Role } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sessionQueryKey } from '../use-session';

/**
 * `POST /api/user/roles`: adds Seller (or Buyer) to the signed-in account, which keeps all it
 * has; answers every role it holds now. The session is read again, so menus and pages follow.
 */
export function addRole(input: AddRoleInput): Promise<{ acknowledged: true; roles: Role[] }> {
  return api.post('/user/roles', input);
}

export function useAddRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  });
}

import type { SetRoleInput } from '@carmarket/shared';

import { api } from '../../../lib/api-client';

/**
 * `POST /api/user`: sets the signed-in person's role (Seller or Buyer), once; the name can be
 * set with it. Asking again for the same role is fine; another role is a 409 `conflict`.
 */
export function setRole(input: SetRoleInput): Promise<{ acknowledged: true }> {
  return api.post<{ acknowledged: true }>('/user', input);
}

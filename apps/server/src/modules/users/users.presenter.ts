import type { Role } from '@carmarket/shared';

/** The answer to adding a role: every role the account holds now, the first taken first. */
export function presentRoles(roles: Role[]) {
  return { acknowledged: true as const, roles };
}

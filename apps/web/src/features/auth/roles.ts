import type { Role } from '@carmarket/shared';

/** Whether someone with `role` may open a page for `roles`: admins may open every page. */
export function canOpen(
  role: Role | null | undefined,
  roles: readonly Role[] | undefined,
): boolean {
  if (!roles) return true;
  return role === 'admin' || (!!role && roles.includes(role));
}

/** Who a page is for, in words: "Seller accounts", "Seller or Buyer accounts", "administrators". */
export function rolesLabel(roles: readonly Role[]): string {
  const kinds = roles.filter((role) => role !== 'admin');
  return kinds.length > 0 ? `${kinds.join(' or ')} accounts` : 'administrators';
}

import { holdsRole, type Role } from '@carmarket/shared';

/** Whether someone holding `roles` may open a page for `pageRoles`: admins may open every page. */
export function canOpen(
  roles: readonly Role[] | null | undefined,
  pageRoles: readonly Role[] | undefined,
): boolean {
  if (!pageRoles) return true;
  return holdsRole(roles, 'admin') || pageRoles.some((role) => holdsRole(roles, role));
}

/** Who a page is for, in words: "Seller accounts", "Seller or Buyer accounts", "administrators". */
export function rolesLabel(roles: readonly Role[]): string {
  const kinds = roles.filter((role) => role !== 'admin');
  return kinds.length > 0 ? `${kinds.join(' or ')} accounts` : 'administrators';
}

/** How the dashboard names what an account is: "Buyer", "Buyer and Seller", "Administrator". */
export function rolesName(roles: readonly Role[] | null | undefined): string {
  if (holdsRole(roles, 'admin')) return 'Administrator';
  if (!roles || roles.length === 0) return 'No account type yet';
  return roles.join(' and ');
}

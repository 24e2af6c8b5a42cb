import type { Role } from '@carmarket/shared';

export interface MenuEntry {
  /** A path, with a query when the page shows a part of its list (All Sellers). */
  to: string;
  label: string;
  /** One line for the dashboard home's shortcuts. */
  description: string;
}

export interface MenuSection {
  title: string;
  entries: readonly MenuEntry[];
}

const buying: MenuSection = {
  title: 'Buying',
  entries: [
    {
      to: '/dashboard/orders',
      label: 'My Orders',
      description: 'The cars you booked, and paying for them.',
    },
  ],
};

const selling: MenuSection = {
  title: 'Selling',
  entries: [
    {
      to: '/dashboard/add-product',
      label: 'Add Product',
      description: 'Put a car up for sale.',
    },
    {
      to: '/dashboard/my-products',
      label: 'My Products',
      description: 'Your cars, who booked them and whether they sold.',
    },
  ],
};

const administration: MenuSection = {
  title: 'Administration',
  entries: [
    {
      to: '/dashboard/allUser',
      label: 'All Users',
      description: 'Everyone with an account.',
    },
    {
      to: '/dashboard/allUser?role=Seller',
      label: 'All Sellers',
      description: 'Verify sellers, or remove them.',
    },
    {
      to: '/dashboard/allUser?role=Buyer',
      label: 'All Buyers',
      description: 'The people who book cars.',
    },
    {
      to: '/dashboard/audit',
      label: 'Audit Log',
      description: 'Who verified, deleted, sold or refunded what, and when.',
    },
  ],
};

/** The side menu for each role (spec section 2); admins also get the seller and buyer pages. */
export function menuFor(role: Role | null): readonly MenuSection[] {
  if (role === 'admin') return [administration, selling, buying];
  if (role === 'Seller') return [selling];
  if (role === 'Buyer') return [buying];
  return [];
}

/** How the dashboard names a role. */
export function roleName(role: Role | null): string {
  if (role === 'admin') return 'Administrator';
  return role ?? 'No account type yet';
}

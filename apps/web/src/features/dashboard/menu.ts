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

// Buyers and sellers: their conversations about cars (admins read reported ones from Reports).
const talking: MenuSection = {
  title: 'Talk',
  entries: [
    {
      to: '/dashboard/messages',
      label: 'Messages',
      description: 'Your conversations about cars, as they happen.',
    },
  ],
};

// Buyers only: the server keeps saved cars and searches for buyer accounts alone.
const keepingTrack: MenuSection = {
  title: 'Keep track',
  entries: [
    {
      to: '/dashboard/saved',
      label: 'Saved cars',
      description: 'The cars you saved with the heart, and how their prices moved.',
    },
    {
      to: '/dashboard/searches',
      label: 'Saved searches',
      description: 'Your searches, the new cars that match them, and their email alerts.',
    },
  ],
};

const selling: MenuSection = {
  title: 'Selling',
  entries: [
    {
      to: '/dashboard/add-product',
      label: 'Add a car',
      description: 'Put a car up for sale.',
    },
    {
      to: '/dashboard/my-products',
      label: 'My cars',
      description: 'Your cars, who booked them and whether they sold.',
    },
  ],
};

// Sellers' own money: admins list no cars of their own to be paid for.
const payouts: MenuEntry = {
  to: '/dashboard/payouts',
  label: 'Payouts',
  description: 'Your balance, payout account and the money sent to it.',
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
      to: '/dashboard/categories',
      label: 'Categories',
      description: 'Add, rename, reorder and delete the categories people browse by.',
    },
    {
      to: '/dashboard/audit',
      label: 'Audit Log',
      description: 'Who verified, deleted, sold or refunded what, and when.',
    },
    {
      to: '/dashboard/reports',
      label: 'Reports',
      description: 'Conversations people reported, to read and deal with.',
    },
    {
      to: '/dashboard/disputes',
      label: 'Disputes',
      description: 'Buyers’ problems with cars they paid for: release the money or refund it.',
    },
  ],
};

// Everyone's, whatever their roles: the profile, password, devices and leaving.
const account: MenuSection = {
  title: 'Account',
  entries: [
    {
      to: '/dashboard/settings',
      label: 'My account',
      description: 'Your name, email, password, signed-in devices, selling, and leaving.',
    },
  ],
};

/**
 * The side menu for the roles an account holds (spec section 2): admins also get the seller and
 * buyer pages; an account that both sells and buys gets both; everyone gets their account.
 */
export function menuFor(roles: readonly Role[]): readonly MenuSection[] {
  if (roles.includes('admin')) return [administration, selling, buying, account];
  const sells = roles.includes('Seller');
  const buys = roles.includes('Buyer');
  return [
    ...(sells ? [{ ...selling, entries: [...selling.entries, payouts] }] : []),
    ...(buys ? [buying] : []),
    ...(sells || buys ? [talking] : []),
    ...(buys ? [keepingTrack] : []),
    account,
  ];
}

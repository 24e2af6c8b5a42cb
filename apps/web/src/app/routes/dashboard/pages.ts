import type { Role } from '@carmarket/shared';

/**
 * The dashboard's pages: `app/routes/dashboard/<file>.tsx`, rendered inside the dashboard layout,
 * which loads the file when the page is opened and checks `roles` with RequireRole. Kept here,
 * with the layout, rather than in app/router.tsx, which every page loads.
 */
export interface DashboardRoute {
  /** Below /dashboard; '' for the dashboard's home. */
  path: string;
  file: string;
  /** Who may open it (admins may open every page); everyone signed in when left out. */
  roles?: readonly Role[];
}

export const dashboardRoutes: readonly DashboardRoute[] = [
  { path: '', file: 'home' },
  { path: 'orders', file: 'orders', roles: ['Buyer'] },
  { path: 'payment/:id', file: 'payment', roles: ['Buyer'] },
  { path: 'receipt/:id', file: 'receipt', roles: ['Buyer'] },
  { path: 'saved', file: 'saved', roles: ['Buyer'] },
  { path: 'searches', file: 'searches', roles: ['Buyer'] },
  // The list, and the list beside one conversation (an admin reads a reported one here).
  { path: 'messages/:id?', file: 'messages', roles: ['Buyer', 'Seller'] },
  { path: 'add-product', file: 'add-product', roles: ['Seller'] },
  { path: 'my-products', file: 'my-products', roles: ['Seller'] },
  { path: 'payouts', file: 'payouts', roles: ['Seller'] },
  { path: 'allUser', file: 'all-users', roles: ['admin'] },
  { path: 'users/:id/cars', file: 'user-cars', roles: ['admin'] },
  { path: 'audit', file: 'audit', roles: ['admin'] },
  { path: 'categories', file: 'categories', roles: ['admin'] },
  { path: 'settings', file: 'settings' },
  { path: 'reports', file: 'reports', roles: ['admin'] },
  { path: 'disputes', file: 'disputes', roles: ['admin'] },
];

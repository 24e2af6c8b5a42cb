import { holdsRole } from '@carmarket/shared';
import { Link } from 'react-router';

import { AddRoleCard } from '../../../features/auth/components/add-role-card';
import { ChooseRoleCard } from '../../../features/auth/components/choose-role-card';
import { rolesName } from '../../../features/auth/roles';
import { useSession } from '../../../features/auth/use-session';
import { RoleOverview } from '../../../features/dashboard-home/components/role-overview';
import { menuFor } from '../../../features/dashboard/menu';
import { usePage } from '../../../lib/page';

/** `/dashboard`: who is signed in, as what, and shortcuts to their pages. */
export default function DashboardHomeRoute() {
  usePage({ title: 'Dashboard' });
  const { user } = useSession();
  if (!user) return null;
  const roles = user.roles;
  const entries = menuFor(roles).flatMap((section) => section.entries);
  const selling = holdsRole(roles, 'Seller');

  return (
    <div className="max-w-4xl">
      <p className="section-eyebrow">Dashboard</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">
        Welcome, {user.name}
      </h1>
      <p className="mt-3 text-lg text-muted">
        <span className="break-all">{user.email}</span> · {rolesName(roles)}
        {selling && (user.verified ? ' · Verified seller' : ' · Not verified yet')}
      </p>

      {roles.length === 0 && (
        <div className="mt-8">
          <ChooseRoleCard email={user.email} />
        </div>
      )}
      {/* "Sell your car" brings a Buyer here: the way to become a seller is the first thing. */}
      {holdsRole(roles, 'Buyer') && !selling && (
        <div className="mt-8">
          <AddRoleCard role="Seller" />
        </div>
      )}

      <RoleOverview roles={roles} />

      {entries.length > 0 && (
        <section aria-labelledby="shortcuts-title" className="mt-10">
          <h2 id="shortcuts-title" className="text-xl font-bold">
            Your pages
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2">
            {entries.map((entry) => (
              <li key={entry.to}>
                <Link
                  to={entry.to}
                  className="block h-full rounded-box border border-base-300 bg-base-100 p-5 card-shadow transition-colors hover:border-primary"
                >
                  <span className="block font-semibold text-primary">{entry.label}</span>
                  <span className="mt-1 block text-sm text-muted">{entry.description}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

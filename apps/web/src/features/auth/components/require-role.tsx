import type { Role } from '@carmarket/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { usePage } from '../../../lib/page';
import { canOpen, rolesLabel } from '../roles';
import { useSession } from '../use-session';
import { RequireAuth } from './require-auth';

function WrongRole({ roles, role }: { roles: readonly Role[]; role: Role | null }) {
  usePage({ title: 'Not for your account type' });
  return (
    <section aria-labelledby="wrong-role-title" className="max-w-2xl py-4">
      <p className="section-eyebrow">Not for your account type</p>
      <h1 id="wrong-role-title" className="mt-2 text-3xl font-extrabold tracking-tight">
        This page is for {rolesLabel(roles)}
      </h1>
      <p className="mt-4 text-lg leading-8 text-muted">
        {role
          ? `You are signed in with a ${role} account, so this page has nothing for you. Your dashboard shows what you can do.`
          : 'Your account has no type yet. Choose Seller or Buyer on your dashboard first.'}
      </p>
      <Link to="/dashboard" className="button button-primary mt-8">
        Back to your dashboard
      </Link>
    </section>
  );
}

/**
 * Shows its children to signed-in people whose role is one of `roles` (admins always; everyone
 * signed in when `roles` is left out). Signed-out people go to sign in and come back; others
 * read which accounts the page is for. The server checks every call again.
 */
export function RequireRole({
  roles,
  children,
}: {
  roles?: readonly Role[] | undefined;
  children: ReactNode;
}) {
  return (
    <RequireAuth>
      <RoleCheck roles={roles}>{children}</RoleCheck>
    </RequireAuth>
  );
}

function RoleCheck({
  roles,
  children,
}: {
  roles: readonly Role[] | undefined;
  children: ReactNode;
}) {
  const role = useSession().user?.role ?? null;
  if (roles && !canOpen(role, roles)) return <WrongRole roles={roles} role={role} />;
  return children;
}

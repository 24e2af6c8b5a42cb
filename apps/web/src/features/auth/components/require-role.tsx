import { holdsRole, type Role, type SignupRole } from '@carmarket/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { usePage } from '../../../lib/page';
import { canOpen, rolesLabel, rolesName } from '../roles';
import { AddRoleCard } from './add-role-card';
import { useSession } from '../use-session';
import { RequireAuth } from './require-auth';

function WrongRole({ roles, held }: { roles: readonly Role[]; held: readonly Role[] }) {
  usePage({ title: 'Not for your account type' });
  // A Buyer on a seller's page ("Sell your car") may become a seller here, and the other way.
  const addable =
    held.length > 0 && !holdsRole(held, 'admin')
      ? roles.find((role): role is SignupRole => role === 'Seller' || role === 'Buyer')
      : undefined;
  return (
    <section aria-labelledby="wrong-role-title" className="max-w-2xl py-4">
      <p className="section-eyebrow">Not for your account type</p>
      <h1 id="wrong-role-title" className="mt-2 text-3xl font-extrabold tracking-tight">
        This page is for {rolesLabel(roles)}
      </h1>
      <p className="mt-4 text-lg leading-8 text-muted">
        {held.length > 0
          ? `You are signed in with a ${rolesName(held)} account, so this page has nothing for you yet.${addable ? '' : ' Your dashboard shows what you can do.'}`
          : 'Your account has no type yet. Choose Seller or Buyer on your dashboard first.'}
      </p>
      {addable && (
        <div className="mt-6">
          <AddRoleCard role={addable} />
        </div>
      )}
      <Link
        to="/dashboard"
        className={`button mt-8 ${addable ? 'button-outline' : 'button-primary'}`}
      >
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
  const held = useSession().user?.roles ?? [];
  if (roles && !canOpen(held, roles)) return <WrongRole roles={roles} held={held} />;
  return children;
}

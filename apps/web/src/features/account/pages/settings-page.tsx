import { holdsRole } from '@carmarket/shared';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';

import { FormAlert } from '../../../components/ui/form-alert';
import { usePage } from '../../../lib/page';
import { toast } from '../../../lib/toast';
import { AddRoleCard, useSession } from '../../auth';
import { useSignInMethods } from '../api/sign-in-methods';
import { DataSection } from '../components/data-section';
import { DeleteSection } from '../components/delete-section';
import { DevicesSection } from '../components/devices-section';
import { EmailSection } from '../components/email-section';
import { PasswordSection } from '../components/password-section';
import { ProfileSection } from '../components/profile-section';

/**
 * What a link from a mail came back to say (`?email=confirmed|changed`, with `error=` when it
 * did not work), read once as the page opens.
 */
function useLinkOutcome(): { kind: 'success' | 'error'; text: string } | null {
  const { search } = useLocation();
  const [outcome] = useState(() => {
    const params = new URLSearchParams(search);
    const email = params.get('email');
    if (!email) return null;
    if (params.has('error')) {
      return {
        kind: 'error' as const,
        text:
          params.get('error') === 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL'
            ? 'That address belongs to another account now, so your address stays as it was.'
            : 'That link has expired or was used already. Ask for a new one below.',
      };
    }
    if (email === 'confirmed') {
      return { kind: 'success' as const, text: 'Thank you: your email address is confirmed.' };
    }
    if (email === 'changed') {
      return { kind: 'success' as const, text: 'Your email address is changed.' };
    }
    return null;
  });
  return outcome;
}

/** The role an account could add: a Buyer may sell, a Seller may buy; admins have all pages. */
function missingRole(roles: Parameters<typeof holdsRole>[0]) {
  if (!roles || roles.length === 0 || holdsRole(roles, 'admin')) return null;
  if (!holdsRole(roles, 'Seller')) return 'Seller' as const;
  if (!holdsRole(roles, 'Buyer')) return 'Buyer' as const;
  return null;
}

/**
 * `/dashboard/settings`, everyone signed in: profile, email address, password, selling (or
 * buying), signed-in devices, your data, and leaving.
 */
export function SettingsPage() {
  usePage({ title: 'My account' });
  const { user } = useSession();
  const { hasPassword } = useSignInMethods();
  const outcome = useLinkOutcome();
  useEffect(() => toast.preload(), []);
  if (!user) return null;
  const addable = missingRole(user.roles);

  return (
    <div className="max-w-3xl">
      <p className="section-eyebrow">Account</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">My account</h1>
      <p className="mt-3 text-lg text-muted">
        Your profile, how you sign in, where you are signed in, your data, and leaving.
      </p>
      {outcome && (
        <div className="mt-6">
          <FormAlert kind={outcome.kind}>{outcome.text}</FormAlert>
        </div>
      )}
      <div className="mt-8 grid gap-6">
        <ProfileSection user={user} />
        <EmailSection user={user} hasPassword={hasPassword} />
        <PasswordSection user={user} hasPassword={hasPassword} />
        {addable && <AddRoleCard role={addable} />}
        <DevicesSection />
        <DataSection />
        <DeleteSection user={user} hasPassword={hasPassword} />
      </div>
    </div>
  );
}

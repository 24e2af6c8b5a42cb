import { ChangeEmailFormSchema, type ChangeEmailFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';

import { ApiForm, useApiForm } from '../../../components/ui/api-form';
import { Field } from '../../../components/ui/field';
import { PasswordInput } from '../../../components/ui/password-input';
import type { Session } from '../../auth';
import { useChangeEmail } from '../api/change-email';
import { SettingsSection } from './section';
import { SendLinkAgain } from './send-link-again';

/**
 * The address: whether it is confirmed, and changing it through a link mailed to the new one.
 * An account with a password gives it first (`hasPassword` null while not known: asked).
 */
export function EmailSection({
  user,
  hasPassword,
}: {
  user: Session['user'];
  hasPassword: boolean | null;
}) {
  const change = useChangeEmail();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const asksPassword = hasPassword !== false;
  const emailForm = useApiForm<ChangeEmailFormInput>({
    resolver: zodResolver(ChangeEmailFormSchema),
    defaultValues: { newEmail: '', currentPassword: '' },
    fields: { newEmail: 'newEmail', email: 'newEmail', currentPassword: 'currentPassword' },
    send: async (values) => {
      setSentTo(null);
      if (asksPassword && !values.currentPassword) {
        emailForm.form.setError('currentPassword', { message: 'Enter your current password' });
        return false;
      }
      return change.mutateAsync({
        newEmail: values.newEmail,
        ...(asksPassword ? { currentPassword: values.currentPassword } : {}),
      });
    },
    onSent: (values) => {
      setSentTo(values.newEmail);
      emailForm.form.reset();
    },
  });
  const { register } = emailForm.form;
  const { errors } = emailForm;

  return (
    <SettingsSection id="email" title="Email address">
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-semibold break-all">{user.email}</span>
        {user.emailVerified ? (
          <span className="badge badge-sm badge-success">Confirmed</span>
        ) : (
          <span className="badge badge-sm badge-warning">Not confirmed yet</span>
        )}
      </p>
      {!user.emailVerified && (
        <div className="mt-3">
          <p className="max-w-2xl leading-7 text-muted">
            Open the link we mailed to this address to confirm it is yours.
          </p>
          <SendLinkAgain email={user.email} className="mt-2" />
        </div>
      )}

      <ApiForm
        form={emailForm}
        className="mt-6"
        heading={<h3 className="font-semibold">Change your address</h3>}
        success={
          sentTo && (
            <>
              We sent a link to <strong className="break-all">{sentTo}</strong>. Your address
              changes when you open it; until then you sign in with{' '}
              <strong className="break-all">{user.email}</strong>. We also told your current
              address.
            </>
          )
        }
        submit={{ label: 'Send the confirmation link', busyLabel: 'Sending…' }}
      >
        <Field
          label="New email address"
          hint="We mail a link to the new address; nothing changes until it is opened."
          error={errors.newEmail?.message}
        >
          {(control) => (
            <input
              {...control}
              {...register('newEmail')}
              type="email"
              autoComplete="email"
              className="input w-full"
            />
          )}
        </Field>
        {asksPassword && (
          <Field
            label="Your password"
            hint="So that no one else can move your account to their address."
            error={errors.currentPassword?.message}
          >
            {(control) => (
              <PasswordInput
                {...control}
                {...register('currentPassword')}
                autoComplete="current-password"
              />
            )}
          </Field>
        )}
      </ApiForm>
    </SettingsSection>
  );
}

import { ChangeEmailFormSchema, type ChangeEmailFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordInput } from '../../../components/ui/password-input';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useServerError } from '../../../lib/use-server-error';
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
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangeEmailFormInput>({
    resolver: zodResolver(ChangeEmailFormSchema),
    defaultValues: { newEmail: '', currentPassword: '' },
  });
  const { formError, showServerError, clearFormError } = useServerError(setError, {
    newEmail: 'newEmail',
    email: 'newEmail',
    currentPassword: 'currentPassword',
  });
  const asksPassword = hasPassword !== false;

  async function handleChange(values: ChangeEmailFormInput) {
    clearFormError();
    setSentTo(null);
    if (asksPassword && !values.currentPassword) {
      setError('currentPassword', { message: 'Enter your current password' });
      return;
    }
    try {
      await change.mutateAsync({
        newEmail: values.newEmail,
        ...(asksPassword ? { currentPassword: values.currentPassword } : {}),
      });
    } catch (error) {
      showServerError(error);
      return;
    }
    setSentTo(values.newEmail);
    reset();
  }

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

      <form noValidate className="form-stack mt-6" onSubmit={handleSubmit(handleChange)}>
        <h3 className="font-semibold">Change your address</h3>
        <FormAlert>{formError?.message}</FormAlert>
        <FormAlert kind="success">
          {sentTo && (
            <>
              We sent a link to <strong className="break-all">{sentTo}</strong>. Your address
              changes when you open it; until then you sign in with{' '}
              <strong className="break-all">{user.email}</strong>. We also told your current
              address.
            </>
          )}
        </FormAlert>
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
        <SubmitButton busy={isSubmitting} busyLabel="Sending…" className="sm:justify-self-start">
          Send the confirmation link
        </SubmitButton>
      </form>
    </SettingsSection>
  );
}

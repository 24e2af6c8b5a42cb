import { ChangePasswordFormSchema, type ChangePasswordFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';

import { ApiForm, useApiForm } from '../../../components/ui/api-form';
import { Field } from '../../../components/ui/field';
import { PasswordInput } from '../../../components/ui/password-input';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { requestPasswordReset, type Session } from '../../auth';
import { useChangePassword } from '../api/change-password';
import { SettingsSection } from './section';

function ChangePasswordForm() {
  const change = useChangePassword();
  const passwordForm = useApiForm<ChangePasswordFormInput>({
    resolver: zodResolver(ChangePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirm: '' },
    fields: {
      currentPassword: 'currentPassword',
      newPassword: 'newPassword',
      // The shared code for a weak password names `password`: here it is the new one.
      password: 'newPassword',
    },
    send: (values) =>
      change.mutateAsync({
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
      }),
    onSent: () => {
      passwordForm.form.reset();
      toast.success('Your password is changed. Every other device was signed out.');
    },
  });
  const { register } = passwordForm.form;
  const { errors } = passwordForm;

  return (
    <ApiForm form={passwordForm} submit={{ label: 'Change password', busyLabel: 'Changing…' }}>
      <Field label="Current password" error={errors.currentPassword?.message}>
        {(control) => (
          <PasswordInput
            {...control}
            {...register('currentPassword')}
            autoComplete="current-password"
          />
        )}
      </Field>
      <Field
        label="New password"
        hint="At least 8 characters, and not a common password."
        error={errors.newPassword?.message}
      >
        {(control) => (
          <PasswordInput {...control} {...register('newPassword')} autoComplete="new-password" />
        )}
      </Field>
      <Field label="New password again" error={errors.confirm?.message}>
        {(control) => (
          <PasswordInput {...control} {...register('confirm')} autoComplete="new-password" />
        )}
      </Field>
    </ApiForm>
  );
}

/** An account without a password (Google only) gets one through the reset link. */
function SetPassword({ email }: { email: string }) {
  const send = useMutation({ mutationFn: () => requestPasswordReset(email) });
  return (
    <div>
      <p className="max-w-2xl leading-7 text-muted">
        You sign in with Google, so your account has no password. To sign in with one as well, we
        can mail you a link to choose it.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button
          type="button"
          className="button button-outline"
          onClick={() => send.mutate()}
          disabled={send.isPending}
        >
          {send.isPending ? 'Sending…' : 'Mail me a link to set a password'}
        </button>
        <span role="status" className={send.isError ? 'text-sm text-error' : 'text-sm'}>
          {send.isSuccess && `Sent to ${email}. The link works for an hour.`}
          {send.isError && errorMessage(send.error)}
        </span>
      </div>
    </div>
  );
}

/**
 * Changing the password: `hasPassword` null while it is not known yet. Changing it signs every
 * other device out, and mails a notice with a way back should it not have been you.
 */
export function PasswordSection({
  user,
  hasPassword,
}: {
  user: Session['user'];
  hasPassword: boolean | null;
}) {
  return (
    <SettingsSection
      id="password"
      title="Password"
      intro={
        hasPassword
          ? 'Changing it signs you out on every other device, and we mail you a notice.'
          : undefined
      }
    >
      {hasPassword === null ? (
        <div aria-hidden="true" className="h-40 animate-pulse rounded-box bg-base-200" />
      ) : hasPassword ? (
        <ChangePasswordForm />
      ) : (
        <SetPassword email={user.email} />
      )}
    </SettingsSection>
  );
}

import { ResetPasswordFormSchema } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';

import { ApiForm, useApiForm } from '../../../components/ui/api-form';
import { Field } from '../../../components/ui/field';
import { PasswordInput } from '../../../components/ui/password-input';
import { toast } from '../../../lib/toast';
import { resetPassword } from '../api/password-reset';
import { sessionQueryKey } from '../use-session';

/** A link to ask for a new reset mail, for links that no longer work. */
export function AskAgainLink() {
  return (
    <Link to="/forgot-password" className="text-link">
      Ask for a new link
    </Link>
  );
}

/** The new password, twice, for the account of the mailed link's `token`. */
export function ResetPasswordForm({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const resetForm = useApiForm<{ password: string; confirm: string }>({
    resolver: zodResolver(ResetPasswordFormSchema),
    defaultValues: { password: '', confirm: '' },
    fields: { password: 'password', newPassword: 'password' },
    send: ({ password }) => resetPassword(password, token),
    onSent: async () => {
      // Every session of the account has ended, this browser's too if it was signed in.
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      toast.success('Your password has been changed. Sign in with your new password.');
      await navigate('/login', { replace: true });
    },
  });
  const { register } = resetForm.form;
  const { errors, formError } = resetForm;

  const linkIsBad = formError?.code === 'invalid-action-code';
  return (
    <ApiForm
      form={resetForm}
      error={
        formError && (
          <>
            {formError.message} {linkIsBad && <AskAgainLink />}
          </>
        )
      }
      submit={{
        label: 'Save new password',
        busyLabel: 'Saving your password…',
        className: 'w-full',
      }}
    >
      <Field
        label="New password"
        hint="At least 8 characters; a long phrase is easiest to remember."
        error={errors.password?.message}
      >
        {(control) => (
          <PasswordInput {...control} {...register('password')} autoComplete="new-password" />
        )}
      </Field>
      <Field label="Confirm new password" error={errors.confirm?.message}>
        {(control) => (
          <PasswordInput {...control} {...register('confirm')} autoComplete="new-password" />
        )}
      </Field>
    </ApiForm>
  );
}

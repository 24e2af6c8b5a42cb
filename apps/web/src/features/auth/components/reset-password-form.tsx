import { ResetPasswordFormSchema } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordInput } from '../../../components/ui/password-input';
import { SubmitButton } from '../../../components/ui/submit-button';
import { toast } from '../../../lib/toast';
import { useServerError } from '../../../lib/use-server-error';
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
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ResetPasswordFormSchema),
    defaultValues: { password: '', confirm: '' },
  });
  const { formError, showServerError, clearFormError } = useServerError(setError, {
    password: 'password',
    newPassword: 'password',
  });

  async function handleReset({ password }: { password: string }) {
    clearFormError();
    try {
      await resetPassword(password, token);
    } catch (error) {
      showServerError(error);
      return;
    }
    // Every session of the account has ended, this browser's too if it was signed in.
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    toast.success('Your password has been changed. Sign in with your new password.');
    await navigate('/login', { replace: true });
  }

  const linkIsBad = formError?.code === 'invalid-action-code';
  return (
    <form noValidate className="form-stack" onSubmit={handleSubmit(handleReset)}>
      <FormAlert>
        {formError && (
          <>
            {formError.message} {linkIsBad && <AskAgainLink />}
          </>
        )}
      </FormAlert>
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
      <SubmitButton busy={isSubmitting} busyLabel="Saving your password…">
        Save new password
      </SubmitButton>
    </form>
  );
}

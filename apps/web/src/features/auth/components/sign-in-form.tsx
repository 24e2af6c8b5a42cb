import { SignInFormSchema } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordInput } from '../../../components/ui/password-input';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useServerError } from '../../../lib/use-server-error';
import type { EmailCarry } from './email-carry';
import { signInWithEmail } from '../api/sign-in';
import { sessionQueryKey } from '../use-session';

/** Email and password; afterwards goes to `next` (a same-site path) or the home page. */
export function SignInForm({ next, email }: { next: string | null; email?: EmailCarry }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(SignInFormSchema),
    defaultValues: { email: email?.current ?? '', password: '' },
  });
  const { formError, showServerError, clearFormError } = useServerError(setError, {
    email: 'email',
  });

  async function handleSignIn(values: { email: string; password: string }) {
    clearFormError();
    try {
      await signInWithEmail(values);
    } catch (error) {
      showServerError(error);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    await navigate(next ?? '/', { replace: true });
  }

  return (
    <form noValidate className="form-stack" onSubmit={handleSubmit(handleSignIn)}>
      <FormAlert>{formError?.message}</FormAlert>
      <Field label="Email" error={errors.email?.message}>
        {(control) => (
          <input
            {...control}
            {...register('email', {
              onChange: (event: { target: { value: string } }) => {
                if (email) email.current = event.target.value;
              },
            })}
            type="email"
            autoComplete="email"
            className="input w-full"
          />
        )}
      </Field>
      <Field label="Password" error={errors.password?.message}>
        {(control) => (
          <PasswordInput {...control} {...register('password')} autoComplete="current-password" />
        )}
      </Field>
      <p className="-mt-2 text-right text-sm">
        <Link to="/forgot-password" className="text-link">
          Forgot password?
        </Link>
      </p>
      <SubmitButton busy={isSubmitting} busyLabel="Signing in…">
        Sign in
      </SubmitButton>
    </form>
  );
}

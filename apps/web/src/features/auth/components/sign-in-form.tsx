import { SignInFormSchema, type SignInFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';

import { ApiForm, useApiForm } from '../../../components/ui/api-form';
import { Field } from '../../../components/ui/field';
import { PasswordInput } from '../../../components/ui/password-input';
import type { EmailCarry } from './email-carry';
import { signInWithEmail } from '../api/sign-in';
import { sessionQueryKey } from '../use-session';

/** Email and password; afterwards goes to `next` (a same-site path) or the home page. */
export function SignInForm({ next, email }: { next: string | null; email?: EmailCarry }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signInForm = useApiForm<SignInFormInput>({
    resolver: zodResolver(SignInFormSchema),
    defaultValues: { email: email?.current ?? '', password: '' },
    fields: { email: 'email' },
    send: (values) => signInWithEmail(values),
    onSent: async () => {
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      await navigate(next ?? '/', { replace: true });
    },
  });
  const { register } = signInForm.form;
  const { errors } = signInForm;

  return (
    <ApiForm
      form={signInForm}
      submit={{ label: 'Sign in', busyLabel: 'Signing in…', className: 'w-full' }}
    >
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
    </ApiForm>
  );
}

import { RegisterFormSchema, SIGNUP_ROLES, type RegisterFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { ApiForm, useApiForm } from '../../../components/ui/api-form';
import { Field } from '../../../components/ui/field';
import { PasswordInput } from '../../../components/ui/password-input';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { setRole } from '../api/set-role';
import { signUpWithEmail } from '../api/sign-up';
import { loginPath } from '../login-path';
import { sessionQueryKey } from '../use-session';

/**
 * Creates the account (which signs it in), then records the account type. Should the second
 * step fail, sending the form again only retries that step. Afterwards goes to `next` (a
 * same-site path) or the home page. An address that has an account already is answered as a new
 * one (decision 044) but with no session: the account type cannot be recorded (401), and the
 * form says to check the mail, which tells the address's owner what happened.
 */
export function RegisterForm({ next }: { next: string | null }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The email of the account this form has already created, if any.
  const created = useRef<string | null>(null);
  // The address a sign-up went to without a session (it has an account): check your mail.
  const [mailedTo, setMailedTo] = useState<string | null>(null);
  const registerForm = useApiForm<RegisterFormInput>({
    resolver: zodResolver(RegisterFormSchema),
    defaultValues: { name: '', email: '', password: '' },
    fields: { name: 'name', email: 'email', password: 'password', role: 'role' },
    send: async ({ name, role, email, password }) => {
      // A failed sign-up throws (its answer shows beside its field or on top); a failed second
      // step says itself what happened.
      if (created.current !== email) {
        await signUpWithEmail({ name, email, password });
        created.current = email;
      }
      try {
        await setRole({ name, email, role });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          created.current = null;
          setMailedTo(email);
          return false;
        }
        registerForm.showFormError(
          `Your account was created, but its type was not saved. ${errorMessage(error)} Press Create account to try again.`,
        );
        return false;
      }
    },
    onSent: async () => {
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      toast.success('Registration successful');
      await navigate(next ?? '/');
    },
  });
  const { register } = registerForm.form;
  const { errors } = registerForm;

  if (mailedTo) return <CheckYourMail email={mailedTo} next={next} />;

  return (
    <ApiForm
      form={registerForm}
      submit={{
        label: 'Create account',
        busyLabel: 'Creating your account…',
        className: 'w-full',
      }}
    >
      <Field label="Name" error={errors.name?.message}>
        {(control) => (
          <input
            {...control}
            {...register('name')}
            type="text"
            autoComplete="name"
            className="input w-full"
          />
        )}
      </Field>
      <Field
        label="Account type"
        hint="Sellers list their cars; buyers book cars and pay for them."
        error={errors.role?.message}
      >
        {(control) => (
          <select {...control} {...register('role')} defaultValue="" className="select w-full">
            <option value="" disabled>
              Choose Seller or Buyer
            </option>
            {SIGNUP_ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Email" error={errors.email?.message}>
        {(control) => (
          <input
            {...control}
            {...register('email')}
            type="email"
            autoComplete="email"
            className="input w-full"
          />
        )}
      </Field>
      <Field
        label="Password"
        hint="At least 8 characters; a long phrase is easiest to remember."
        error={errors.password?.message}
      >
        {(control) => (
          <PasswordInput {...control} {...register('password')} autoComplete="new-password" />
        )}
      </Field>
    </ApiForm>
  );
}

/** After a sign-up that began no session: the next step is in the mail sent to the address. */
function CheckYourMail({ email, next }: { email: string; next: string | null }) {
  return (
    <div role="status" className="grid gap-3">
      <h2 className="text-lg font-semibold">Check your mail</h2>
      <p className="leading-7">
        We sent a message to <strong className="break-all">{email}</strong>: it says what to do
        next. If this address already has an account, the message says how to sign in to it.
      </p>
      <p className="text-sm text-muted">
        Nothing came? Look in your spam folder, or{' '}
        <Link to={loginPath(next)} className="text-link">
          sign in
        </Link>{' '}
        if you have an account.
      </p>
    </div>
  );
}

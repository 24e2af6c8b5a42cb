import { RegisterFormSchema, SIGNUP_ROLES, type RegisterFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useNavigate } from 'react-router';

import { ApiForm, useApiForm } from '../../../components/ui/api-form';
import { Field } from '../../../components/ui/field';
import { PasswordInput } from '../../../components/ui/password-input';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { setRole } from '../api/set-role';
import { signUpWithEmail } from '../api/sign-up';
import { sessionQueryKey } from '../use-session';

/**
 * Creates the account (which signs it in), then records the account type. Should the second
 * step fail, sending the form again only retries that step. Afterwards goes to `next` (a
 * same-site path) or the home page.
 */
export function RegisterForm({ next }: { next: string | null }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The email of the account this form has already created, if any.
  const created = useRef<string | null>(null);
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

import { RegisterFormSchema, SIGNUP_ROLES, type RegisterFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordInput } from '../../../components/ui/password-input';
import { SubmitButton } from '../../../components/ui/submit-button';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useServerError } from '../../../lib/use-server-error';
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
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(RegisterFormSchema),
    defaultValues: { name: '', email: '', password: '' },
  });
  const { formError, showServerError, showFormError, clearFormError } = useServerError(setError, {
    name: 'name',
    email: 'email',
    password: 'password',
    role: 'role',
  });

  async function handleRegister({ name, role, email, password }: RegisterFormInput) {
    clearFormError();
    if (created.current !== email) {
      try {
        await signUpWithEmail({ name, email, password });
        created.current = email;
      } catch (error) {
        showServerError(error);
        return;
      }
    }
    try {
      await setRole({ name, email, role });
    } catch (error) {
      showFormError(
        `Your account was created, but its type was not saved. ${errorMessage(error)} Press Create account to try again.`,
      );
      return;
    }
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    toast.success('Registration successful');
    await navigate(next ?? '/');
  }

  return (
    <form noValidate className="form-stack" onSubmit={handleSubmit(handleRegister)}>
      <FormAlert>{formError?.message}</FormAlert>
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
      <SubmitButton busy={isSubmitting} busyLabel="Creating your account…">
        Create account
      </SubmitButton>
    </form>
  );
}

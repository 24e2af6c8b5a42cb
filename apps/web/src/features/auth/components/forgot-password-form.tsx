import { ForgotPasswordFormSchema } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useServerError } from '../../../lib/use-server-error';
import { requestPasswordReset } from '../api/password-reset';

/** Asks for a reset link. The answer never says whether the email has an account. */
export function ForgotPasswordForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ForgotPasswordFormSchema),
    defaultValues: { email: '' },
  });
  const { formError, showServerError, clearFormError } = useServerError(setError, {
    email: 'email',
  });

  async function handleRequest({ email }: { email: string }) {
    clearFormError();
    try {
      await requestPasswordReset(email);
      setSentTo(email);
    } catch (error) {
      showServerError(error);
    }
  }

  if (sentTo) {
    return (
      <div className="form-stack">
        <FormAlert kind="success">
          If an account exists for <strong className="break-all">{sentTo}</strong>, we sent a link
          to it. The link works for one hour; check your spam folder if it does not arrive.
        </FormAlert>
        <Link to="/login" className="button button-primary w-full">
          Back to sign in
        </Link>
        <button
          type="button"
          className="button button-ghost w-full"
          onClick={() => setSentTo(null)}
        >
          Use another email
        </button>
      </div>
    );
  }

  return (
    <form noValidate className="form-stack" onSubmit={handleSubmit(handleRequest)}>
      <FormAlert>{formError?.message}</FormAlert>
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
      <SubmitButton busy={isSubmitting} busyLabel="Sending the link…">
        Send me a link
      </SubmitButton>
    </form>
  );
}

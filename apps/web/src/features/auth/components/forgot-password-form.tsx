import { ForgotPasswordFormSchema } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Link } from 'react-router';

import { ApiForm, useApiForm } from '../../../components/ui/api-form';
import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { requestPasswordReset } from '../api/password-reset';

/** Asks for a reset link. The answer never says whether the email has an account. */
export function ForgotPasswordForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const requestForm = useApiForm<{ email: string }>({
    resolver: zodResolver(ForgotPasswordFormSchema),
    defaultValues: { email: '' },
    fields: { email: 'email' },
    send: ({ email }) => requestPasswordReset(email),
    onSent: ({ email }) => setSentTo(email),
  });
  const { register } = requestForm.form;
  const { errors } = requestForm;

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
    <ApiForm
      form={requestForm}
      submit={{ label: 'Send me a link', busyLabel: 'Sending the link…', className: 'w-full' }}
    >
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
    </ApiForm>
  );
}

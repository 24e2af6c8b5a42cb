import { EmailLinkFormSchema, type EmailLinkFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { SubmitButton } from '../../../components/ui/submit-button';
import { useServerError } from '../../../lib/use-server-error';
import type { EmailCarry } from './email-carry';
import { requestSignInLink } from '../api/sign-in-with-link';

/** Signing in without a password: a link mailed to the address, that comes back to `next`. */
export function EmailLinkForm({ next, email }: { next: string | null; email?: EmailCarry }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<EmailLinkFormInput>({
    resolver: zodResolver(EmailLinkFormSchema),
    defaultValues: { email: email?.current ?? '' },
  });
  const { formError, showServerError, clearFormError } = useServerError(setError, {
    email: 'email',
  });

  async function handleSend(values: EmailLinkFormInput) {
    clearFormError();
    setSentTo(null);
    try {
      await requestSignInLink(values.email, next);
    } catch (error) {
      showServerError(error);
      return;
    }
    setSentTo(values.email);
  }

  return (
    <form noValidate className="form-stack" onSubmit={handleSubmit(handleSend)}>
      <FormAlert>{formError?.message}</FormAlert>
      <FormAlert kind="success">
        {sentTo && (
          <>
            If <strong className="break-all">{sentTo}</strong> has a CarMarket account, a sign-in
            link is on its way. Open it within 15 minutes; it works once.
          </>
        )}
      </FormAlert>
      <Field
        label="Email"
        hint="We mail you a link that signs you in: no password needed."
        error={errors.email?.message}
      >
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
      <SubmitButton busy={isSubmitting} busyLabel="Sending…">
        {sentTo ? 'Send another link' : 'Email me a sign-in link'}
      </SubmitButton>
    </form>
  );
}

import { EmailLinkFormSchema, type EmailLinkFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';

import { ApiForm, useApiForm } from '../../../components/ui/api-form';
import { Field } from '../../../components/ui/field';
import type { EmailCarry } from './email-carry';
import { requestSignInLink } from '../api/sign-in-with-link';

/** Signing in without a password: a link mailed to the address, that comes back to `next`. */
export function EmailLinkForm({ next, email }: { next: string | null; email?: EmailCarry }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const linkForm = useApiForm<EmailLinkFormInput>({
    resolver: zodResolver(EmailLinkFormSchema),
    defaultValues: { email: email?.current ?? '' },
    fields: { email: 'email' },
    send: (values) => {
      setSentTo(null);
      return requestSignInLink(values.email, next);
    },
    onSent: (values) => setSentTo(values.email),
  });
  const { register } = linkForm.form;
  const { errors } = linkForm;

  return (
    <ApiForm
      form={linkForm}
      success={
        sentTo && (
          <>
            If <strong className="break-all">{sentTo}</strong> has a CarMarket account, a sign-in
            link is on its way. Open it within 15 minutes; it works once.
          </>
        )
      }
      submit={{
        label: sentTo ? 'Send another link' : 'Email me a sign-in link',
        busyLabel: 'Sending…',
        className: 'w-full',
      }}
    >
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
    </ApiForm>
  );
}

import { DeleteAccountFormSchema, holdsRole, type DeleteAccountFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';

import { ApiForm, useApiForm } from '../../../components/ui/api-form';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordInput } from '../../../components/ui/password-input';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { clearSignedInCache, useSignInOptions, type Session } from '../../auth';
import { clearRecentlyViewed } from '../../recently-viewed';
import { useDeleteAccount } from '../api/delete-account';
import { SettingsSection } from './section';

/** What deleting the account does, in plain words: exactly what the server then does. */
function WhatHappens({ user, holdDays }: { user: Session['user']; holdDays: number | undefined }) {
  return (
    <ul className="list-disc space-y-1 pl-5 leading-7">
      <li>You are signed out on every device, and can no longer sign in to this account.</li>
      {holdsRole(user.roles, 'Buyer') && (
        <li>
          Your open bookings are cancelled, and any car held for your payment is freed. Their
          sellers are told.
        </li>
      )}
      {holdsRole(user.roles, 'Seller') && (
        <li>
          Your cars that are for sale are taken off the site, and the people who booked them are
          told.
        </li>
      )}
      <li>
        Paid bookings stay on record for the other party, with your name shown as &ldquo;Deleted
        user&rdquo;. Your name, phone, photo, saved cars and searches are erased.
      </li>
      <li>
        {holdDays
          ? `Your email address can be used for a new account after ${holdDays} days.`
          : 'Your email address can be used for a new account after a while.'}{' '}
        This cannot be undone.
      </li>
    </ul>
  );
}

/** Asks for the password, then deletes. */
function PasswordForm({ onDeleted, onCancel }: { onDeleted: () => void; onCancel: () => void }) {
  const remove = useDeleteAccount();
  const deleteForm = useApiForm<DeleteAccountFormInput>({
    resolver: zodResolver(DeleteAccountFormSchema),
    defaultValues: { password: '' },
    fields: { password: 'password' },
    send: (values) => remove.mutateAsync({ password: values.password }),
    onSent: onDeleted,
  });
  const { register } = deleteForm.form;

  return (
    <ApiForm form={deleteForm}>
      <Field label="Your password" error={deleteForm.errors.password?.message}>
        {(control) => (
          <PasswordInput
            {...control}
            {...register('password')}
            autoComplete="current-password"
            data-autofocus
          />
        )}
      </Field>
      <DialogButtons busy={deleteForm.isSubmitting} onCancel={onCancel} />
    </ApiForm>
  );
}

function DialogButtons({ busy, onCancel }: { busy: boolean; onCancel: () => void }) {
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <button type="button" className="button button-outline" onClick={onCancel} disabled={busy}>
        Keep my account
      </button>
      <button
        type="submit"
        className="button bg-error text-error-content hover:bg-error/90"
        disabled={busy}
        aria-busy={busy || undefined}
      >
        {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {busy ? 'Deleting…' : 'Delete my account'}
      </button>
    </div>
  );
}

/** An account without a password (Google only): a link mailed to it stands in for one. */
function MailLink({ email, onCancel }: { email: string; onCancel: () => void }) {
  const ask = useDeleteAccount();
  return (
    <div className="form-stack">
      <p className="leading-7">
        Your account has no password (you sign in with Google), so we mail a link to{' '}
        <strong className="break-all">{email}</strong> instead. Open it here, in this browser,
        within an hour, and confirm once more.
      </p>
      <FormAlert kind={ask.isError ? 'error' : 'success'}>
        {ask.isError
          ? errorMessage(ask.error)
          : ask.isSuccess && 'The link is on its way. Check your inbox.'}
      </FormAlert>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className="button button-outline" onClick={onCancel} data-autofocus>
          Keep my account
        </button>
        <button
          type="button"
          className="button bg-error text-error-content hover:bg-error/90"
          onClick={() => ask.mutate({})}
          disabled={ask.isPending}
        >
          {ask.isPending ? 'Sending…' : 'Mail me the link'}
        </button>
      </div>
    </div>
  );
}

/** From the mailed link (`#delete=<token>`): the last "yes". */
function ConfirmWithLink({
  token,
  onDeleted,
  onCancel,
}: {
  token: string;
  onDeleted: () => void;
  onCancel: () => void;
}) {
  const remove = useDeleteAccount();
  return (
    <form
      noValidate
      className="form-stack"
      onSubmit={(event) => {
        event.preventDefault();
        remove.mutate({ token }, { onSuccess: onDeleted });
      }}
    >
      <FormAlert>{remove.isError ? errorMessage(remove.error) : null}</FormAlert>
      <DialogButtons busy={remove.isPending} onCancel={onCancel} />
    </form>
  );
}

/** The token of a link mailed to confirm deleting the account, from the address's fragment. */
function tokenInAddress(): string | null {
  if (typeof window === 'undefined') return null;
  const match = /^#delete=([a-f0-9]+)$/.exec(window.location.hash);
  return match?.[1] ?? null;
}

/**
 * Leaving: says what deleting does, then asks for the password (or, without one, sends a link
 * whose token comes back here in the address) and deletes through the admin's one code path.
 */
export function DeleteSection({
  user,
  hasPassword,
}: {
  user: Session['user'];
  hasPassword: boolean | null;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { data: options } = useSignInOptions();
  const [token] = useState(tokenInAddress);
  const [open, setOpen] = useState(token !== null);
  const isAdmin = holdsRole(user.roles, 'admin');

  useEffect(() => {
    toast.preload();
    // The token is used once from here; a reload or a shared address should not carry it.
    if (token) window.history.replaceState(null, '', window.location.pathname);
  }, [token]);

  // The session is forgotten once this page has gone: forgotten while it shows, its sign-in
  // check would send the browser to sign in (navigations render later than a plain update).
  const forgetOnLeave = useRef(false);
  useEffect(
    () => () => {
      if (forgetOnLeave.current) clearSignedInCache(queryClient);
    },
    [queryClient],
  );

  async function handleDeleted() {
    forgetOnLeave.current = true;
    // Nothing of the deleted account stays in this browser for the next person to see.
    clearRecentlyViewed(user.id);
    setOpen(false);
    toast.success('Your account was deleted. Goodbye, and thank you for using CarMarket.');
    await navigate('/', { replace: true });
  }

  return (
    <SettingsSection
      id="delete"
      title="Delete my account"
      tone="danger"
      intro="If you leave, this is what happens:"
    >
      <WhatHappens user={user} holdDays={options?.deletedAccountHoldDays} />
      {isAdmin ? (
        <p className="mt-5 font-semibold">
          An administrator account cannot delete itself. Ask another administrator to remove it.
        </p>
      ) : (
        <button
          type="button"
          className="button mt-5 border border-error bg-base-100 text-error hover:bg-error-soft"
          onClick={() => setOpen(true)}
          aria-haspopup="dialog"
          disabled={hasPassword === null && !token}
        >
          Delete my account…
        </button>
      )}
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Delete your account?"
        description={<WhatHappens user={user} holdDays={options?.deletedAccountHoldDays} />}
        wide
      >
        {token ? (
          <ConfirmWithLink
            token={token}
            onDeleted={() => void handleDeleted()}
            onCancel={() => setOpen(false)}
          />
        ) : hasPassword ? (
          <PasswordForm onDeleted={() => void handleDeleted()} onCancel={() => setOpen(false)} />
        ) : (
          <MailLink email={user.email} onCancel={() => setOpen(false)} />
        )}
      </Dialog>
    </SettingsSection>
  );
}

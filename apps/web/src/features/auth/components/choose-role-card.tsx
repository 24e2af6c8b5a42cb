import { SIGNUP_ROLES, type SignupRole } from '@carmarket/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';

import { FormAlert } from '../../../components/ui/form-alert';
import { SubmitButton } from '../../../components/ui/submit-button';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { setRole } from '../api/set-role';
import { sessionQueryKey } from '../use-session';

const ROLE_TEXT: Record<SignupRole, string> = {
  Seller: 'List your cars and see who booked them.',
  Buyer: 'Book cars and pay for them by card.',
};

/** For an account without a role (its sign-up was interrupted): Seller or Buyer, once. */
export function ChooseRoleCard({ email }: { email: string }) {
  const queryClient = useQueryClient();
  const [role, setChosenRole] = useState<SignupRole | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setErrorText] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setErrorText(null);
    if (!role) {
      setErrorText('Please choose Seller or Buyer.');
      return;
    }
    setBusy(true);
    try {
      await setRole({ email, role });
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      toast.success(`Your account is now a ${role} account.`);
    } catch (failure) {
      setErrorText(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      aria-labelledby="choose-role-title"
      className="rounded-box border border-accent bg-base-100 p-6 card-shadow"
    >
      <h2 id="choose-role-title" className="text-xl font-bold">
        Choose your account type
      </h2>
      <p className="mt-1 text-muted">You choose once; it decides what your dashboard offers.</p>
      <form noValidate className="form-stack mt-5" onSubmit={(event) => void handleSubmit(event)}>
        <FormAlert>{error}</FormAlert>
        <fieldset className="grid gap-3 sm:grid-cols-2">
          <legend className="sr-only">Account type</legend>
          {SIGNUP_ROLES.map((option) => (
            <label
              key={option}
              className={`flex cursor-pointer gap-3 rounded-box border p-4 ${role === option ? 'border-primary bg-primary-soft' : 'border-base-300'}`}
            >
              <input
                type="radio"
                name="role"
                value={option}
                checked={role === option}
                onChange={() => setChosenRole(option)}
                className="mt-1 size-4 accent-primary"
              />
              <span>
                <span className="block font-semibold">{option}</span>
                <span className="block text-sm text-muted">{ROLE_TEXT[option]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <SubmitButton busy={busy} busyLabel="Saving…" className="sm:justify-self-start">
          Save account type
        </SubmitButton>
      </form>
    </section>
  );
}

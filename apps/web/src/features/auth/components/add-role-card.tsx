import type { SignupRole } from '@carmarket/shared';
import { useEffect } from 'react';

import { FormAlert } from '../../../components/ui/form-alert';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useAddRole } from '../api/add-role';

const OFFERS: Record<SignupRole, { title: string; text: string; button: string; done: string }> = {
  Seller: {
    title: 'Sell your car',
    text: 'Add selling to your account: you can list cars and see who booked them. Whatever you have as a buyer stays, and you go on buying as before.',
    button: 'Become a seller',
    done: 'You can sell cars now. List your first one from Add a car.',
  },
  Buyer: {
    title: 'Buy a car too',
    text: 'Add buying to your account: you can book cars, pay for them and save the ones you like. Your cars and their bookings stay as they are.',
    button: 'Start buying',
    done: 'You can book cars now.',
  },
};

/**
 * Offers an account the role it lacks (a Buyer becomes a Seller, or a Seller buys too); the
 * account then holds both, and the pages of both open.
 */
export function AddRoleCard({
  role,
  headingLevel = 2,
  onAdded,
}: {
  role: SignupRole;
  headingLevel?: 2 | 3;
  onAdded?: () => void;
}) {
  const adding = useAddRole();
  const offer = OFFERS[role];
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  useEffect(() => toast.preload(), []);

  function handleAdd() {
    adding.mutate(
      { role },
      {
        onSuccess: () => {
          toast.success(offer.done);
          onAdded?.();
        },
      },
    );
  }

  return (
    <section
      aria-labelledby={`add-role-${role}`}
      className="rounded-box border border-base-300 bg-base-100 p-6 card-shadow"
    >
      <Heading id={`add-role-${role}`} className="text-xl font-bold">
        {offer.title}
      </Heading>
      <p className="mt-2 max-w-2xl leading-7 text-muted">{offer.text}</p>
      <div className="mt-4">
        <FormAlert>{adding.isError ? errorMessage(adding.error) : null}</FormAlert>
      </div>
      <button
        type="button"
        className="button button-primary mt-4"
        onClick={handleAdd}
        disabled={adding.isPending}
        aria-busy={adding.isPending || undefined}
      >
        {adding.isPending && (
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
        )}
        {adding.isPending ? 'Adding…' : offer.button}
      </button>
    </section>
  );
}

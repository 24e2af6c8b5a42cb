import { BookingFormSchema, formatMoney, type BookingFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { SubmitButton } from '../../../components/ui/submit-button';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useServerError, type FormError } from '../../../lib/use-server-error';
import type { useCreateBooking } from '../api/create-booking';
import { ORDERS_PATH } from '../paths';

export interface BookableListing {
  _id: string;
  name: string;
  reprice: number;
  currency: string;
}

/** A new key for one attempt at booking (`Idempotency-Key`). */
function newAttemptKey(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}

/**
 * Why the booking failed: plain words, with a way on. Booked already: a link to My Orders. No
 * answer (offline, or the network hung): say so, and offer to send the same booking again.
 */
function BookingFailure({ error, failure }: { error: FormError; failure: ApiError | null }) {
  if (failure?.bookingId) {
    return (
      <>
        You already booked this car.{' '}
        <Link to={ORDERS_PATH} className="font-semibold underline">
          See My Orders
        </Link>
      </>
    );
  }
  if (failure?.code === 'network-request-failed') {
    const offline = navigator.onLine === false;
    return (
      <div className="grid gap-3">
        <p>
          <strong>{offline ? 'You’re offline.' : 'We could not reach CarMarket.'}</strong> Check
          your connection, then try again; trying again never books the car twice.
        </p>
        <button type="submit" className="button button-outline button-sm justify-self-start">
          Try again
        </button>
      </div>
    );
  }
  return error.message;
}

/**
 * The booking form (in the booking dialog): name, email and price are read-only, from the
 * session and the car; the buyer types a phone number and where to meet.
 */
export function BookingForm({
  listing,
  buyer,
  booking,
  onDone,
}: {
  listing: BookableListing;
  /** `phone`: the one on their profile, which the form starts with. */
  buyer: { name: string; email: string; phone?: string | null | undefined };
  booking: ReturnType<typeof useCreateBooking>;
  /** After booking, and on Cancel. */
  onDone: () => void;
}) {
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<BookingFormInput>({
    resolver: zodResolver(BookingFormSchema),
    defaultValues: { userPhone: buyer.phone ?? '', userLocation: '' },
  });
  const { formError, showServerError, clearFormError } = useServerError(setError, {
    userPhone: 'userPhone',
    userLocation: 'userLocation',
  });
  const [failure, setFailure] = useState<ApiError | null>(null);
  // One key per attempt: the same details sent again (a retry) reuse it, so the server answers
  // the booking a lost answer was about instead of booking twice.
  const attempt = useRef<{ key: string; details: string } | null>(null);

  useEffect(() => {
    toast.preload();
    // The dialog focuses its first field (read-only) as it opens; the phone is the first to type.
    const frame = requestAnimationFrame(() => setFocus('userPhone'));
    return () => cancelAnimationFrame(frame);
  }, [setFocus]);

  async function handleBook(values: BookingFormInput) {
    clearFormError();
    setFailure(null);
    const input = { listingId: listing._id, ...values };
    const details = JSON.stringify(input);
    if (attempt.current?.details !== details) attempt.current = { key: newAttemptKey(), details };
    try {
      await booking.mutateAsync({ input, idempotencyKey: attempt.current.key });
    } catch (error) {
      setFailure(error instanceof ApiError ? error : null);
      showServerError(error);
      return;
    }
    toast.success('Booked');
    onDone();
  }

  return (
    <form noValidate className="form-stack" onSubmit={handleSubmit(handleBook)}>
      <FormAlert>{formError && <BookingFailure error={formError} failure={failure} />}</FormAlert>
      <Field label="Name">
        {(control) => (
          <input {...control} value={buyer.name} readOnly className="input w-full bg-base-200" />
        )}
      </Field>
      <Field label="Email">
        {(control) => (
          <input
            {...control}
            type="email"
            value={buyer.email}
            readOnly
            className="input w-full bg-base-200"
          />
        )}
      </Field>
      <Field label="Price">
        {(control) => (
          <input
            {...control}
            value={formatMoney(listing.reprice, listing.currency)}
            readOnly
            className="input w-full bg-base-200"
          />
        )}
      </Field>
      <Field label="Phone" error={errors.userPhone?.message}>
        {(control) => (
          <input
            {...control}
            {...register('userPhone')}
            type="tel"
            autoComplete="tel"
            className="input w-full"
          />
        )}
      </Field>
      <Field
        label="Meeting location"
        hint="Where you would like to see the car: a town or an address."
        error={errors.userLocation?.message}
      >
        {(control) => (
          <input
            {...control}
            {...register('userLocation')}
            autoComplete="address-level2"
            className="input w-full"
          />
        )}
      </Field>
      <div className="flex flex-col-reverse gap-3 pt-1 sm:flex-row sm:justify-end">
        <button
          type="button"
          className="button button-outline"
          disabled={isSubmitting}
          onClick={onDone}
        >
          Cancel
        </button>
        <SubmitButton busy={isSubmitting} busyLabel="Booking…" className="sm:min-w-36">
          Book now
        </SubmitButton>
      </div>
    </form>
  );
}

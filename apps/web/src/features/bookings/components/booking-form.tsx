import { BookingFormSchema, formatMoney, type BookingFormInput } from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { SubmitButton } from '../../../components/ui/submit-button';
import { toast } from '../../../lib/toast';
import { useServerError } from '../../../lib/use-server-error';
import type { useCreateBooking } from '../api/create-booking';

export interface BookableListing {
  _id: string;
  name: string;
  reprice: number;
  currency: string;
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
  buyer: { name: string; email: string };
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
    defaultValues: { userPhone: '', userLocation: '' },
  });
  const { formError, showServerError, clearFormError } = useServerError(setError, {
    userPhone: 'userPhone',
    userLocation: 'userLocation',
  });

  useEffect(() => {
    toast.preload();
    // The dialog focuses its first field (read-only) as it opens; the phone is the first to type.
    const frame = requestAnimationFrame(() => setFocus('userPhone'));
    return () => cancelAnimationFrame(frame);
  }, [setFocus]);

  async function handleBook(values: BookingFormInput) {
    clearFormError();
    try {
      await booking.mutateAsync({ listingId: listing._id, ...values });
    } catch (error) {
      showServerError(error);
      return;
    }
    toast.success('Booked');
    onDone();
  }

  return (
    <form noValidate className="form-stack" onSubmit={handleSubmit(handleBook)}>
      <FormAlert>{formError?.message}</FormAlert>
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

import type { ListingStatus } from '@carmarket/shared';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';

import { Dialog } from '../../../components/ui/dialog';
import { useSession, type Session } from '../../auth';
import { useCreateBooking } from '../api/create-booking';
import type { BookableListing } from './booking-form';

// The form (with its validation library, ~38 KB) loads when the dialog first opens, or when the
// pointer or focus reaches the button, not with every page that lists cars.
const loadBookingForm = () => import('./booking-form');
const BookingForm = lazy(() => loadBookingForm().then((m) => ({ default: m.BookingForm })));

export interface BookButtonListing extends BookableListing {
  sellerId: string;
  status: ListingStatus;
}

/** Why this person cannot book this car, or null when they can. */
export function bookingBlocker(
  user: Session['user'] | null,
  listing: { sellerId: string; status: ListingStatus },
): string | null {
  if (user && listing.sellerId === user.id) return 'This is your car';
  if (user?.role !== 'Buyer') return 'Only buyer accounts can book cars';
  if (listing.status === 'reserved') return 'Another buyer is paying for it; try again soon';
  if (listing.status !== 'available') return 'No longer available';
  return null;
}

/**
 * "Book now": opens the booking dialog. When the person cannot book the car, the button stays
 * focusable but does nothing, and says why below it (tied to it with aria-describedby).
 * `before` goes on the button's left, in the same row (e.g. a link to the car's page).
 */
export function BookButton({
  listing,
  before,
  className = '',
}: {
  listing: BookButtonListing;
  before?: ReactNode;
  className?: string;
}) {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const booking = useCreateBooking();
  const reasonId = useId();
  const blocker = bookingBlocker(user, listing);

  return (
    <div className={className}>
      <div className="flex gap-3">
        {before}
        <button
          type="button"
          className="button button-primary flex-1"
          aria-disabled={blocker ? true : undefined}
          aria-describedby={blocker ? reasonId : undefined}
          aria-haspopup={blocker ? undefined : 'dialog'}
          onPointerEnter={blocker ? undefined : () => void loadBookingForm()}
          onFocus={blocker ? undefined : () => void loadBookingForm()}
          onClick={() => {
            if (!blocker) setOpen(true);
          }}
        >
          Book now
        </button>
      </div>
      {blocker && (
        <p id={reasonId} className="mt-2 text-sm leading-5 text-muted">
          {blocker}
        </p>
      )}
      {user && !blocker && (
        <Dialog
          open={open}
          onClose={() => setOpen(false)}
          title={`Book the ${listing.name}`}
          description="The seller gets your phone number and where you would like to meet."
          busy={booking.isPending}
        >
          <Suspense
            fallback={
              <p role="status" className="py-8 text-center text-muted">
                Loading the form…
              </p>
            }
          >
            <BookingForm
              listing={listing}
              buyer={{ name: user.name, email: user.email }}
              booking={booking}
              onDone={() => setOpen(false)}
            />
          </Suspense>
        </Dialog>
      )}
    </div>
  );
}

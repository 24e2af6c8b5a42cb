import { holdsRole, type Booking, type ListingStatus } from '@carmarket/shared';
import { lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { Dialog } from '../../../components/ui/dialog';
import { useSession, useSignInOptions, type Session } from '../../auth';
import { carActionPath, SignInFirstButton } from '../../visitors';
import { useCreateBooking } from '../api/create-booking';
import { useMyBookings } from '../api/get-my-bookings';
import { ORDERS_PATH, receiptPath } from '../paths';
import type { BookableListing } from './booking-form';

// The form (with its validation library, ~38 KB) loads when the dialog first opens, or when the
// pointer or focus reaches the button, not with every page that lists cars.
const loadBookingForm = () => import('./booking-form');
const BookingForm = lazy(() => loadBookingForm().then((m) => ({ default: m.BookingForm })));

export interface BookButtonListing extends BookableListing {
  sellerId: string;
  status: ListingStatus;
}

export interface BookingBlocker {
  reason: string;
  /** Where to go instead, e.g. the booking the person made already. */
  link?: { to: string; label: string };
}

/** Where a person confirms their address (or asks for the link again). */
const SETTINGS_PATH = '/dashboard/settings';

/**
 * Why this person cannot book this car, or null when they can. `mine`: their own open or paid
 * booking of it, if any (they book a car once, and learn so before filling in the form).
 * `mustConfirmEmail`: the site asks for a confirmed address first (REQUIRE_VERIFIED_EMAIL) and
 * theirs is not.
 */
export function bookingBlocker(
  user: Session['user'] | null,
  listing: { sellerId: string; status: ListingStatus },
  mine?: Pick<Booking, '_id' | 'status'>,
  mustConfirmEmail = false,
): BookingBlocker | null {
  if (user && listing.sellerId === user.id) return { reason: 'This is your car' };
  // A visitor signed out, looking at a car that is gone (decision 028).
  if (!user && listing.status !== 'available' && listing.status !== 'reserved') {
    return { reason: 'No longer available' };
  }
  if (!holdsRole(user?.roles, 'Buyer')) return { reason: 'Only buyer accounts can book cars' };
  if (mine?.status === 'paid') {
    return {
      reason: 'You bought this car.',
      link: { to: receiptPath(mine._id), label: 'See the receipt' },
    };
  }
  if (mine?.status === 'pending') {
    return { reason: 'You booked this car.', link: { to: ORDERS_PATH, label: 'See My Orders' } };
  }
  if (listing.status === 'reserved')
    return { reason: 'Another buyer is paying for it; try again soon' };
  if (listing.status !== 'available') return { reason: 'No longer available' };
  if (mustConfirmEmail) {
    return {
      reason: 'Confirm your email address to book: open the link we mailed you.',
      link: { to: SETTINGS_PATH, label: 'Send it again' },
    };
  }
  return null;
}

/**
 * "Book now": opens the booking dialog. When the person cannot book the car, the button stays
 * focusable but does nothing, and says why below it (tied to it with aria-describedby).
 * `before` goes on the button's left, in the same row (e.g. a link to the car's page). A visitor
 * without an account (where the site lets them browse) is asked to sign in or register, and
 * comes back to the car's page with the dialog open (`finish`, decision 028).
 */
export function BookButton({
  listing,
  before,
  className = '',
  finish,
}: {
  listing: BookButtonListing;
  before?: ReactNode;
  className?: string;
  /** Given on the car's page they came back to: opens the dialog once, if they can book. */
  finish?: (() => void) | undefined;
}) {
  const { user, isPending } = useSession();
  const [open, setOpen] = useState(false);
  const booking = useCreateBooking();
  const reasonId = useId();
  // One request for every card on the page: they share the query.
  const myBookings = useMyBookings(user?.email ?? '', { enabled: holdsRole(user?.roles, 'Buyer') });
  const mine = myBookings.data?.find(
    (b) => b.listingId === listing._id && (b.status === 'pending' || b.status === 'paid'),
  );
  // Asked only of someone whose address is unconfirmed: nobody else needs the answer.
  const unconfirmed = !!user && !user.emailVerified;
  const options = useSignInOptions({ enabled: unconfirmed });
  const blocker = bookingBlocker(
    user,
    listing,
    mine,
    unconfirmed && options.data?.requireVerifiedEmail === true,
  );
  // Opened once everything that could block it is known.
  const toFinish = useRef(finish);
  const known =
    !!user &&
    (!holdsRole(user.roles, 'Buyer') || myBookings.isSuccess) &&
    (!unconfirmed || !options.isPending);
  useEffect(() => {
    const finished = toFinish.current;
    if (!finished || !known) return;
    toFinish.current = undefined;
    if (!blocker) setOpen(true);
    finished();
  }, [known, blocker]);

  if (!isPending && !user && (listing.status === 'available' || listing.status === 'reserved')) {
    return (
      <div className={className}>
        <div className="flex gap-3">
          {before}
          <SignInFirstButton
            className="button button-primary flex-1"
            title={`Book the ${listing.name}`}
            why="Sign in or create an account to book it: the seller gets your phone number and where you would like to meet. You come back here to finish."
            next={carActionPath(listing._id, 'book')}
          >
            Book now
          </SignInFirstButton>
        </div>
      </div>
    );
  }

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
          {blocker.reason}
          {blocker.link && (
            <>
              {' '}
              <Link to={blocker.link.to} className="text-link font-semibold">
                {blocker.link.label}
              </Link>
            </>
          )}
        </p>
      )}
      {/* Mounted even when they can no longer book (they just did, so the button says so): the
          dialog then closes itself and gives focus back to the button. */}
      {user && (
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
              buyer={{ name: user.name, email: user.email, phone: user.phone }}
              booking={booking}
              onDone={() => setOpen(false)}
            />
          </Suspense>
        </Dialog>
      )}
    </div>
  );
}

import { holdsRole } from '@carmarket/shared';
import { allow, decide, deny, hide, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { userPolicy } from '../users/users.policy.ts';

const BOOKING_NOT_FOUND = 'That booking was not found.';

/** Whether this person may see the booking at all: its buyer, the car's seller, or an admin. */
const seesBooking = (actor: SessionUser, booking: { buyerId: string; sellerId: string }) =>
  holdsRole(actor.roles, 'admin') || booking.buyerId === actor.id || booking.sellerId === actor.id;

/** Who may do what with bookings. */
export const bookingPolicy = {
  /**
   * Only Buyer accounts book, never their own car, and only with a confirmed address when the
   * site requires one (REQUIRE_VERIFIED_EMAIL).
   */
  canBook(
    actor: SessionUser,
    listing: { sellerId: string },
    site: { requireVerifiedEmail: boolean },
  ): Decision {
    if (!holdsRole(actor.roles, 'Buyer')) return deny('Only buyer accounts can book cars.');
    if (listing.sellerId === actor.id) return deny('You cannot book your own car.');
    return userPolicy.hasConfirmedEmail(actor, site);
  },
  /** A buyer's bookings list: that buyer, or an admin. */
  canListBookingsOf: (actor: SessionUser, email: string) =>
    decide(
      holdsRole(actor.roles, 'admin') || actor.email.toLowerCase() === email.toLowerCase(),
      'You can only see your own bookings.',
    ),
  /** One booking: its buyer, the car's seller, or an admin; to anyone else it does not exist. */
  canView: (actor: SessionUser, booking: { buyerId: string; sellerId: string }) =>
    seesBooking(actor, booking) ? allow : hide(BOOKING_NOT_FOUND),
  /** Bookings of cars (Booked Items): sellers see their own cars', admins everyone's. */
  canListBookedItems: (actor: SessionUser) =>
    decide(
      holdsRole(actor.roles, 'Seller') || holdsRole(actor.roles, 'admin'),
      'This is for Seller or admin accounts only.',
    ),
  /**
   * A receipt: only the buyer who paid, and only once the booking is paid (a refunded one keeps
   * its receipt, which shows the refund); else there is none.
   */
  canSeeReceipt: (actor: SessionUser, booking: { buyerId: string; status: string }) =>
    booking.buyerId === actor.id && (booking.status === 'paid' || booking.status === 'refunded')
      ? allow
      : hide('That receipt was not found.'),
  /**
   * Cancelling: the buyer (while the booking is pending, which the service checks as it cancels).
   * Those who may not see the booking are told it does not exist.
   */
  canCancel(actor: SessionUser, booking: { buyerId: string; sellerId: string }): Decision {
    if (booking.buyerId === actor.id) return allow;
    return seesBooking(actor, booking)
      ? deny('Only the buyer can cancel a booking.')
      : hide(BOOKING_NOT_FOUND);
  },
};

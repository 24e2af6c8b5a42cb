import { holdsRole } from '@carmarket/shared';
import { decide, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { userPolicy } from '../users/users.policy.ts';

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
    if (!holdsRole(actor.roles, 'Buyer'))
      return { ok: false, reason: 'Only buyer accounts can book cars.' };
    if (listing.sellerId === actor.id)
      return { ok: false, reason: 'You cannot book your own car.' };
    return userPolicy.hasConfirmedEmail(actor, site);
  },
  /** A buyer's bookings list: that buyer, or an admin. */
  canListBookingsOf: (actor: SessionUser, email: string) =>
    holdsRole(actor.roles, 'admin') || actor.email.toLowerCase() === email.toLowerCase(),
  /** One booking: its buyer, the car's seller, or an admin. */
  canView: (actor: SessionUser, booking: { buyerId: string; sellerId: string }) =>
    holdsRole(actor.roles, 'admin') ||
    booking.buyerId === actor.id ||
    booking.sellerId === actor.id,
  /** Bookings of cars (Booked Items): sellers see their own cars', admins everyone's. */
  canListBookedItems: (actor: SessionUser) =>
    decide(
      holdsRole(actor.roles, 'Seller') || holdsRole(actor.roles, 'admin'),
      'This is for Seller or admin accounts only.',
    ),
  /** A receipt: only the buyer who paid, and only once the booking is paid. */
  canSeeReceipt: (actor: SessionUser, booking: { buyerId: string; status: string }) =>
    booking.buyerId === actor.id && booking.status === 'paid',
  /** Cancelling: the buyer, while the booking is pending. */
  canCancel: (actor: SessionUser, booking: { buyerId: string }) => booking.buyerId === actor.id,
};

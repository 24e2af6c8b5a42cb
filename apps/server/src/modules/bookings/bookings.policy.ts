import { decide } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** Who may do what with bookings. */
export const bookingPolicy = {
  /** Only Buyer accounts book, and never their own car. */
  canBook(
    actor: SessionUser,
    listing: { sellerId: string },
  ): { ok: true } | { ok: false; reason: string } {
    if (actor.role !== 'Buyer') return { ok: false, reason: 'Only buyer accounts can book cars.' };
    if (listing.sellerId === actor.id)
      return { ok: false, reason: 'You cannot book your own car.' };
    return { ok: true };
  },
  /** A buyer's bookings list: that buyer, or an admin. */
  canListBookingsOf: (actor: SessionUser, email: string) =>
    actor.role === 'admin' || actor.email.toLowerCase() === email.toLowerCase(),
  /** One booking: its buyer, the car's seller, or an admin. */
  canView: (actor: SessionUser, booking: { buyerId: string; sellerId: string }) =>
    actor.role === 'admin' || booking.buyerId === actor.id || booking.sellerId === actor.id,
  /** Bookings of cars (Booked Items): sellers see their own cars', admins everyone's. */
  canListBookedItems: (actor: SessionUser) =>
    decide(
      actor.role === 'Seller' || actor.role === 'admin',
      'This is for Seller or admin accounts only.',
    ),
  /** Cancelling: the buyer, while the booking is pending. */
  canCancel: (actor: SessionUser, booking: { buyerId: string }) => booking.buyerId === actor.id,
};

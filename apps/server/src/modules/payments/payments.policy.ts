import { allow, deny, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { bookingPolicy } from '../bookings/bookings.policy.ts';

/** Who may do what with payments. */
export const paymentPolicy = {
  /**
   * Starting, holding and recording a payment: the booking's buyer only. Those who may see the
   * booking (an admin, the car's seller) are told why; anyone else learns nothing of it.
   */
  canPay(actor: SessionUser, booking: { buyerId: string; sellerId: string }): Decision {
    if (booking.buyerId === actor.id) return allow;
    const seeing = bookingPolicy.canView(actor, booking);
    return seeing.ok ? deny('Only the buyer can pay for a booking.') : seeing;
  },
};

import type { SessionUser } from '../../plugins/auth.ts';
import { bookingPolicy } from '../bookings/bookings.policy.ts';

/** A refusal: its reason, and whether the booking must look as if it did not exist. */
export type PaymentDecision = { ok: true } | { ok: false; reason: string; hidden: boolean };

/** Who may do what with payments. */
export const paymentPolicy = {
  /**
   * Starting, holding and recording a payment: the booking's buyer only. Those who may see the
   * booking (an admin, the car's seller) are told why; anyone else learns nothing of it.
   */
  canPay(actor: SessionUser, booking: { buyerId: string; sellerId: string }): PaymentDecision {
    if (booking.buyerId === actor.id) return { ok: true };
    if (bookingPolicy.canView(actor, booking)) {
      return { ok: false, reason: 'Only the buyer can pay for a booking.', hidden: false };
    }
    return { ok: false, reason: 'That booking was not found.', hidden: true };
  },
};

import type { SessionUser } from '../../plugins/auth.ts';

/** A refusal: its reason, and whether the booking must look as if it did not exist. */
export type PaymentDecision = { ok: true } | { ok: false; reason: string; hidden: boolean };

/** Who may do what with payments. */
export const paymentPolicy = {
  /**
   * Starting and recording a payment: the booking's buyer only. An admin sees the booking, so is
   * told why; anyone else learns nothing of it.
   */
  canPay(actor: SessionUser, booking: { buyerId: string }): PaymentDecision {
    if (booking.buyerId === actor.id) return { ok: true };
    if (actor.role === 'admin') {
      return { ok: false, reason: 'Only the buyer can pay for a booking.', hidden: false };
    }
    return { ok: false, reason: 'That booking was not found.', hidden: true };
  },
};

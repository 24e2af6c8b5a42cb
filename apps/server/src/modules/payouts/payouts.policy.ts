import { holdsRole } from '@carmarket/shared';
import { allow, decide, deny, hide, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

const BOOKING_NOT_FOUND = 'That booking was not found.';

/** Who may move a paid booking's money, and who sees the figures (decision 037). */
export const payoutPolicy = {
  /**
   * Confirming hand-over or opening a dispute: only the booking's buyer. The seller and admins
   * (who see the booking) are refused; anyone else is told it does not exist.
   */
  canActAsBuyer(
    actor: SessionUser,
    booking: { buyerId: string; sellerId: string },
    action: 'confirm hand-over' | 'dispute',
  ): Decision {
    if (booking.buyerId === actor.id) return allow;
    const sees = holdsRole(actor.roles, 'admin') || booking.sellerId === actor.id;
    return sees ? deny(`Only the buyer can ${action}.`) : hide(BOOKING_NOT_FOUND);
  },
  /** Ruling on disputes: admins only. */
  canRuleOnDisputes: (actor: SessionUser) =>
    decide(holdsRole(actor.roles, 'admin'), 'This is for admins only.'),
  /** The platform's money figures (held, fees, paid out, owed, refunded): admins only. */
  canSeeMoney: (actor: SessionUser) =>
    decide(holdsRole(actor.roles, 'admin'), 'This is for admins only.'),
  /** A balance, payouts and a payout account: sellers' own. */
  canBePaid: (actor: SessionUser) =>
    decide(holdsRole(actor.roles, 'Seller'), 'Payouts are for Seller accounts only.'),
};

import { finishResolvingDisputes } from '../modules/payouts/disputes.service.ts';
import type { PayoutDeps } from '../modules/payouts/payout-deps.ts';
import { sendDuePayouts } from '../modules/payouts/payout.service.ts';
import { releaseDueSettlements } from '../modules/payouts/settlement.service.ts';
import type { Job } from './job.ts';

/**
 * The payout sweep (decision 037), every PAYOUT_SWEEP_SECONDS: refund rulings a crash left
 * half done are finished, bookings awaiting hand-over whose hand-over days have passed are released to their
 * sellers, then due payouts (and those a crash left sending) are sent.
 */
export function payoutSweepJob(
  deps: PayoutDeps,
  intervalMs: number,
): Job<{ refunded: number; released: number; paid: number }> {
  return {
    name: 'payout sweep',
    intervalMs,
    async run() {
      const refunded = await finishResolvingDisputes(deps);
      const released = await releaseDueSettlements(deps);
      const paid = await sendDuePayouts(deps);
      return { refunded, released, paid };
    },
  };
}

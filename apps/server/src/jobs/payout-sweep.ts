import type { PayoutDeps } from '../modules/payouts/payout-deps.ts';
import { sendDuePayouts } from '../modules/payouts/payout.service.ts';
import { releaseDueSettlements } from '../modules/payouts/settlement.service.ts';
import type { Job } from './job.ts';

/**
 * The payout sweep (decision 037), every PAYOUT_SWEEP_SECONDS: held bookings whose hand-over
 * days have passed are released to their sellers, then due payouts (and those a crash left
 * sending) are sent.
 */
export function payoutSweepJob(
  deps: PayoutDeps,
  intervalMs: number,
): Job<{ released: number; paid: number }> {
  return {
    name: 'payout sweep',
    intervalMs,
    async run() {
      const released = await releaseDueSettlements(deps);
      const paid = await sendDuePayouts(deps);
      return { released, paid };
    },
  };
}

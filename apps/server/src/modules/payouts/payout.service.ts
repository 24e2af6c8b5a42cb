import type { PayoutDeps } from './payout-deps.ts';

/**
 * Sends the payouts that are due: released bookings of sellers with a ready payout account, and
 * payouts a crash left `sending`. `only` narrows it to one seller or booking (after a hand-over).
 * Safe to run from any process, any number of times. Answers how many were paid.
 * (Being written: issue 35.)
 */
export async function sendDuePayouts(
  deps: PayoutDeps,
  only: { sellerId?: string; bookingId?: string } = {},
): Promise<number> {
  void deps;
  void only;
  return 0;
}

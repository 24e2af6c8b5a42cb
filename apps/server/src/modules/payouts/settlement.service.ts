import type { PayoutDeps } from './payout-deps.ts';

/**
 * Releases to their sellers the held bookings whose hand-over days have passed (the timer):
 * claimed with SKIP LOCKED, so any number of processes may run it. Answers how many.
 * (Being written: issue 35.)
 */
export async function releaseDueSettlements(deps: PayoutDeps): Promise<number> {
  void deps;
  return 0;
}

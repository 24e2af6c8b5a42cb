import type { DomainEvents } from '../../lib/events.ts';
import type { PayoutDeps } from './payout-deps.ts';

/**
 * A sale holds the buyer's money (decision 037): `car.sold` writes the booking's settlement and
 * the charge's ledger entries in the sale's transaction. (Being written.)
 */
export function subscribePayouts(
  events: DomainEvents,
  deps: Pick<PayoutDeps, 'feePercent' | 'releaseDays'>,
) {
  void events;
  void deps;
}

import type { DomainEvents } from '../../lib/events.ts';
import type { PayoutDeps } from './payout-deps.ts';
import { settleSale } from './settlement.service.ts';

/**
 * A sale holds the buyer's money (decision 037): `car.sold` writes the booking's settlement and
 * the charge's ledger entries in the sale's transaction.
 */
export function subscribePayouts(
  events: DomainEvents,
  deps: Pick<PayoutDeps, 'feePercent' | 'releaseDays'>,
) {
  events.subscribe('car.sold', 'payouts', (tx, sale) => settleSale(tx, sale, deps));
}

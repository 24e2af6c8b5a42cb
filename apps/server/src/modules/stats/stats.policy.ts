import { holdsRole, type ListingStatus } from '@carmarket/shared';
import { allow, deny, hide, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** Who may read which figures. */
export const statsPolicy = {
  /** Any car's stats page at all: sellers (their own cars) and admins (every car). */
  canReadCarStats: (actor: SessionUser): Decision =>
    holdsRole(actor.roles, 'Seller') || holdsRole(actor.roles, 'admin')
      ? allow
      : deny('This is for Seller accounts only.'),
  /**
   * One car's stats, asked after canReadCarStats: its seller and admins. Another seller's car,
   * and a removed car to its seller (gone from their list), do not exist here.
   */
  canReadStatsOf: (
    actor: SessionUser,
    car: { sellerId: string; status: ListingStatus },
  ): Decision =>
    holdsRole(actor.roles, 'admin') || (car.sellerId === actor.id && car.status !== 'removed')
      ? allow
      : hide('That car was not found.'),
};

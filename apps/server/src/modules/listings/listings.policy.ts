import type { ListingStatus } from '@carmarket/shared';
import { decide } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** Who may do what with cars. */
export const listingPolicy = {
  /** Adding cars and the seller's own pages: Seller accounts. */
  canSell: (actor: SessionUser) =>
    decide(actor.role === 'Seller', 'This is for Seller accounts only.'),
  /** Withdrawn and removed cars are visible to their seller and admins only. */
  canView: (actor: SessionUser, car: { sellerId: string; status: ListingStatus }) =>
    (car.status !== 'withdrawn' && car.status !== 'removed') ||
    car.sellerId === actor.id ||
    actor.role === 'admin',
  /** Editing, withdrawing and advertising: the car's seller. */
  canManage: (actor: SessionUser, car: { sellerId: string }) => car.sellerId === actor.id,
};

import type { ListingStatus } from '@carmarket/shared';
import type { SessionUser } from '../../plugins/auth.ts';

export const listingPolicy = {
  /** Withdrawn and removed cars are visible to their seller and admins only. */
  canView: (actor: SessionUser, car: { sellerId: string; status: ListingStatus }) =>
    (car.status !== 'withdrawn' && car.status !== 'removed') ||
    car.sellerId === actor.id ||
    actor.role === 'admin',
  /** Editing, withdrawing and advertising: the car's seller. */
  canManage: (actor: SessionUser, car: { sellerId: string }) => car.sellerId === actor.id,
};

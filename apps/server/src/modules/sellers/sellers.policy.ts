import { holdsRole, type Role } from '@carmarket/shared';
import { allow, hide, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** Who may see whose seller profile. */
export const sellerPolicy = {
  /**
   * A seller's profile, asked after listingPolicy.canBrowse (the route's `mayBrowse`): whoever may
   * see cars may see who sells them. An account that is not a seller's, or was deleted, has no
   * profile: not found, as an id nobody has (decision 008; the route answers that one itself).
   */
  canSeeProfile: (
    _actor: SessionUser | null,
    account: { roles: Role[]; deletedAt: Date | null },
  ): Decision =>
    account.deletedAt === null && holdsRole(account.roles, 'Seller')
      ? allow
      : hide('That seller was not found.'),
};

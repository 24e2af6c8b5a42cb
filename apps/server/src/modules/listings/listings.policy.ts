import { holdsRole, messageForCode, type ListingStatus } from '@carmarket/shared';
import { allow, conflicting, deny, hide, signInFirst, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { userPolicy } from '../users/users.policy.ts';

/** Who may do what with cars. */
export const listingPolicy = {
  /** The seller's own pages (My Products, booked items): Seller accounts. */
  canSell: (actor: SessionUser): Decision =>
    holdsRole(actor.roles, 'Seller') ? allow : deny('This is for Seller accounts only.'),
  /**
   * Putting a new car up for sale: a Seller, whose address is confirmed when the site requires it
   * (REQUIRE_VERIFIED_EMAIL).
   */
  canList(actor: SessionUser, site: { requireVerifiedEmail: boolean }): Decision {
    const selling = listingPolicy.canSell(actor);
    if (!selling.ok) return selling;
    return userPolicy.hasConfirmedEmail(actor, site);
  },
  /**
   * Seeing cars on sale (search, a category's page, a car's page): anyone signed in; a visitor
   * without an account only where the site lets people browse signed out (BROWSE_SIGNED_OUT,
   * decision 028). Closed, the answer is the 401 every call behind sign-in gives.
   */
  canBrowse: (actor: SessionUser | null, site: { browseSignedOut: boolean }): Decision =>
    actor || site.browseSignedOut ? allow : signInFirst(messageForCode('unauthenticated')),
  /**
   * Acting on a car (asking about it, changing it): withdrawn and removed cars are their seller's
   * and admins' only; to others (a visitor signed out too) they do not exist.
   */
  canView: (
    actor: SessionUser | null,
    car: { sellerId: string; status: ListingStatus },
  ): Decision =>
    (car.status !== 'withdrawn' && car.status !== 'removed') ||
    (actor !== null && (car.sellerId === actor.id || holdsRole(actor.roles, 'admin')))
      ? allow
      : hide('That car was not found.'),
  /**
   * A car's page and its similar cars, asked after canBrowse: a sold or withdrawn car's page stays
   * up and says so (a saved car, an alert's link: issue 32); a car an admin removed (or whose
   * seller's account was deleted) is its seller's and admins' only, not found to others.
   */
  canSeePage: (
    actor: SessionUser | null,
    car: { sellerId: string; status: ListingStatus },
  ): Decision =>
    car.status !== 'removed' ||
    (actor !== null && (car.sellerId === actor.id || holdsRole(actor.roles, 'admin')))
      ? allow
      : hide('That car was not found.'),
  /** Editing, withdrawing, relisting and advertising: the car's seller. */
  canManage: (actor: SessionUser, car: { sellerId: string }): Decision =>
    car.sellerId === actor.id ? allow : deny('Only the seller can change this car.'),
  /**
   * Putting a car back on sale, asked after canView and canManage: only a withdrawn car can be. A
   * removed car is gone for its seller too (their list leaves it out), so it does not exist here.
   */
  canRelist(car: { status: ListingStatus }): Decision {
    switch (car.status) {
      case 'withdrawn':
        return allow;
      case 'removed':
        return hide('That car was not found.');
      case 'sold':
        return conflicting('A sold car cannot be put back on sale.');
      default:
        return conflicting('This car is on sale already.');
    }
  },
};

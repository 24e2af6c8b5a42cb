import { holdsRole, type Role } from '@carmarket/shared';
import { allow, conflicting, decide, deny, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const isAdmin = (actor: { roles: readonly Role[] }) => holdsRole(actor.roles, 'admin');

type Person = { id: string; roles: readonly Role[] };

/** Who may do what with people's accounts; every rule about users lives here. */
export const userPolicy = {
  /** Role flags of `email`: that user, or an admin. */
  canReadRoleOf: (actor: SessionUser, email: string) =>
    decide(
      sameEmail(actor.email, email) || isAdmin(actor),
      'You can only look up your own account.',
    ),
  /** Setting the role chosen at sign-up: one's own email only. */
  canSetRoleOf: (actor: SessionUser, email: string) =>
    decide(sameEmail(actor.email, email), 'You can only set your own role.'),
  /** Registering an account after a first Google sign-in: one's own email only. */
  canRegister: (actor: SessionUser, email: string) =>
    decide(sameEmail(actor.email, email), 'You can only register your own account.'),
  /** A bearer token: for one's own email only. */
  canGetTokenFor: (actor: SessionUser, email: string) =>
    decide(sameEmail(actor.email, email), 'You can only ask for your own token.'),
  /**
   * Verifying: an admin, and only seller accounts are verified. A buyer cannot become verified:
   * the admin may act, the target is wrong for it (409).
   */
  canVerify(actor: SessionUser, target: Person): Decision {
    if (!isAdmin(actor)) return deny('This is for admin accounts only.');
    return holdsRole(target.roles, 'Seller')
      ? allow
      : conflicting('Only seller accounts can be verified.');
  },
  /** Deleting someone: an admin; never oneself, never another admin. */
  canDelete(actor: { id: string; roles: readonly Role[] }, target: Person): Decision {
    if (!isAdmin(actor)) return deny('This is for admin accounts only.');
    if (target.id === actor.id) return deny('You cannot delete your own account.');
    if (isAdmin(target)) return deny('Admin accounts cannot be deleted.');
    return allow;
  },
  /**
   * Deleting one's own account (My account): anyone but an administrator, whose account another
   * administrator or the create-admin command looks after, so a site is never left without one.
   */
  canDeleteSelf: (actor: { roles: readonly Role[] }): Decision =>
    decide(
      !isAdmin(actor),
      'An administrator account cannot delete itself. Ask another administrator to remove it.',
    ),
  /**
   * Adding a role (becoming a seller, or buying too): an account that has chosen its first role
   * and is not an administrator, which opens every page already. Adding a role held already is
   * fine (a retried request).
   */
  canAddRole(actor: SessionUser): Decision {
    if (isAdmin(actor)) return deny('An administrator account already opens every page.');
    return decide(actor.roles.length > 0, 'Choose Buyer or Seller on your dashboard first.');
  },
  /**
   * With REQUIRE_VERIFIED_EMAIL on, booking and listing wait until the person opened the link
   * mailed to their address; the reason says where to ask for it again.
   */
  hasConfirmedEmail: (actor: SessionUser, site: { requireVerifiedEmail: boolean }): Decision =>
    decide(
      !site.requireVerifiedEmail || actor.emailVerified,
      'Confirm your email address first: open the link we mailed you, or send it again from My account.',
    ),
};

import { allow, decide, deny, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

type Person = { id: string; role: string | null };

/** Who may do what with people's accounts; every rule about users lives here. */
export const userPolicy = {
  /** Role flags of `email`: that user, or an admin. */
  canReadRoleOf: (actor: SessionUser, email: string) =>
    sameEmail(actor.email, email) || actor.role === 'admin',
  /** Setting one's own role, or asking for one's own token: one's own email only. */
  isOwnEmail: (actor: SessionUser, email: string) => sameEmail(actor.email, email),
  /** Verifying: an admin, and only seller accounts are verified. */
  canVerify(actor: SessionUser, target: Person): Decision {
    if (actor.role !== 'admin') return deny('This is for admin accounts only.');
    return decide(target.role === 'Seller', 'Only seller accounts can be verified.');
  },
  /** Deleting someone: an admin; never oneself, never another admin. */
  canDelete(actor: SessionUser, target: Person): Decision {
    if (actor.role !== 'admin') return deny('This is for admin accounts only.');
    if (target.id === actor.id) return deny('You cannot delete your own account.');
    if (target.role === 'admin') return deny('Admin accounts cannot be deleted.');
    return allow;
  },
};

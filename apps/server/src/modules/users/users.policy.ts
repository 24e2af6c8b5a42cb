import type { SessionUser } from '../../plugins/auth.ts';

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Who may do what with people's accounts; every rule about users lives here. */
export const userPolicy = {
  /** Role flags of `email`: that user, or an admin. */
  canReadRoleOf: (actor: SessionUser, email: string) =>
    sameEmail(actor.email, email) || actor.role === 'admin',
  /** Setting one's own role, or asking for one's own token: one's own email only. */
  isOwnEmail: (actor: SessionUser, email: string) => sameEmail(actor.email, email),
};

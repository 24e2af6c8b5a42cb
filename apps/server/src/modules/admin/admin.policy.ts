import { holdsRole } from '@carmarket/shared';
import { decide } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/**
 * Who may use the administration: the user lists, the audit log, removing any car. Rules about
 * what an admin may do to one person (verify, delete) are in users.policy.ts.
 */
export const adminPolicy = {
  canAdminister: (actor: SessionUser) =>
    decide(holdsRole(actor.roles, 'admin'), 'This is for admin accounts only.'),
};

import { holdsRole } from '@carmarket/shared';
import { decide } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** Who may change the categories: add, rename, reorder and delete them. Anyone may list them. */
export const categoryPolicy = {
  canManage: (actor: SessionUser) =>
    decide(holdsRole(actor.roles, 'admin'), 'Only administrators can change the categories.'),
};

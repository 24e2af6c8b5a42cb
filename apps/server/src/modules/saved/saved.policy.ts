import { holdsRole } from '@carmarket/shared';
import { allow, decide, hide } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** Who may keep track of cars and searches; each person sees and changes only their own. */
export const savedPolicy = {
  /** Saving cars and searches is for buyer accounts, as booking is. */
  canKeepTrack: (actor: SessionUser) =>
    decide(holdsRole(actor.roles, 'Buyer'), 'Saving cars and searches is for buyer accounts.'),
  /** A saved search: only the person who saved it (anyone else is told it does not exist). */
  owns: (actor: SessionUser, search: { userId: string }) =>
    search.userId === actor.id ? allow : hide('That saved search was not found.'),
};

import { allow, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/**
 * Who may take data out of the site in bulk (decision 042). The admin's CSV of whole tables is
 * the administration's (`adminPolicy.canAdminister`).
 */
export const exportPolicy = {
  /**
   * "Download my data": every signed-in person, administrators included, and only their own:
   * the call takes no id, so what is exported is always the caller's (a deleted account is not
   * signed in). How often is the daily limit's business, not a rule of who.
   */
  canExportOwnData: (_actor: SessionUser): Decision => allow,
};

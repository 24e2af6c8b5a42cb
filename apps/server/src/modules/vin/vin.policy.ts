import { allow, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** Who may decode VINs. */
export const vinPolicy = {
  /**
   * Anyone signed in: a seller filling in a car, a buyer checking the VIN a seller gave them.
   * Signed-out visitors may not: a decode costs the server CPU, and the per-person limit
   * (VIN_DECODES_PER_MINUTE) needs a person to count against.
   */
  canDecode: (_actor: SessionUser): Decision => allow,
};

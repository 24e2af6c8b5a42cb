import { allow, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** Who may upload photos. */
export const uploadPolicy = {
  /** Anyone signed in, for now (DESIGN.md section 6); the daily quota bounds each person. */
  canUpload: (_actor: SessionUser): Decision => allow,
};

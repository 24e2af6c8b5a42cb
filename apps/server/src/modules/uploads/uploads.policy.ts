import { holdsRole } from '@carmarket/shared';
import { allow, deny, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** Who may upload photos. */
export const uploadPolicy = {
  /** Car photos: seller accounts only; the daily quota bounds each of them. */
  canUpload: (actor: SessionUser): Decision =>
    holdsRole(actor.roles, 'Seller') ? allow : deny('Only seller accounts can upload car photos.'),
  /** A profile photo: anyone signed in, under the same daily quota. */
  canUploadProfilePhoto: (_actor: SessionUser): Decision => allow,
};

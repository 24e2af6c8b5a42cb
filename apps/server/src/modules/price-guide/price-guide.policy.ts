import { allow, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** Who may ask the price guide what a car is worth. */
export const priceGuidePolicy = {
  /**
   * Anyone signed in: sellers pricing a car, buyers weighing one. Signed out, the route's
   * `authenticate` answers 401 first.
   */
  canAsk: (_actor: SessionUser): Decision => allow,
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PayoutDeps } from './payout-deps.ts';

/**
 * A seller's balance, payouts and payout account (`/api/my/balance`, `/api/my/payouts`,
 * `/api/my/payout-account`) and the admins' money figures (`/api/admin/money`). (Being written.)
 */
export const payoutRoutes: FastifyPluginAsyncZod<{ deps: PayoutDeps }> = async (app, { deps }) => {
  void app;
  void deps;
};

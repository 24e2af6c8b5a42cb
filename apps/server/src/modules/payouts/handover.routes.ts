import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PayoutDeps } from './payout-deps.ts';

/**
 * The buyer's hand-over and dispute (`POST /api/booked/:id/handover`, `.../dispute`) and the
 * admins' disputes (`GET /api/disputes`, `POST /api/disputes/:id/resolve`). (Being written.)
 */
export const handoverRoutes: FastifyPluginAsyncZod<{ deps: PayoutDeps }> = async (
  app,
  { deps },
) => {
  void app;
  void deps;
};

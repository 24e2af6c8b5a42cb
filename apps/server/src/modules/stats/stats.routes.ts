import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CarStatsSchema, IdParamsSchema, StatsSchema } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { currentUser, guard } from '../../plugins/auth.ts';
import { carForStats, carStats } from './car-stats.service.ts';
import { statsPolicy } from './stats.policy.ts';
import { statsFor } from './stats.service.ts';

/** The dashboard home's figures: every signed-in person gets those of their own role. */
export const statsRoutes: FastifyPluginAsyncZod<{ db: Db; currency: string }> = async (
  app,
  { db, currency },
) => {
  app.get(
    '/stats',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['stats'],
        summary: "The dashboard home's figures for the caller's role",
        response: { 200: StatsSchema, ...errorResponses },
      },
    },
    async (request) => statsFor(db, currentUser(request), currency),
  );

  app.get(
    '/my/listings/:id/stats',
    {
      preValidation: [app.authenticate, guard(statsPolicy.canReadCarStats)],
      schema: {
        tags: ['stats'],
        summary: "What one car drew over the last 30 days (its seller's and admins')",
        params: IdParamsSchema,
        response: { 200: CarStatsSchema, ...errorResponses },
      },
    },
    async (request) => {
      const car = await carForStats(db, request.params.id);
      if (!car) throw notFound('That car');
      authorize(statsPolicy.canReadStatsOf(currentUser(request), car));
      return carStats(db, car.id);
    },
  );
};

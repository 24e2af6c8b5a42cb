import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StatsSchema } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { currentUser } from '../../plugins/auth.ts';
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
};

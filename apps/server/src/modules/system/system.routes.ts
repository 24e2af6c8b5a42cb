import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, HealthSchema, ReadySchema } from '@carmarket/shared';
import type { Database } from '../../db/client.ts';

/** Liveness (the process answers) and readiness (the database answers) for load balancers. */
export const systemRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (
  app,
  { database },
) => {
  app.get(
    '/health',
    {
      schema: { tags: ['system'], summary: 'The process is up', response: { 200: HealthSchema } },
      logLevel: 'warn',
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'The database answers',
        response: { 200: ReadySchema, 503: ApiErrorSchema },
      },
      logLevel: 'warn',
    },
    async (request, reply) => {
      try {
        await database.ping();
        return { status: 'ready' as const, database: 'up' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'database is not answering');
        return reply
          .status(503)
          .send({ error: { code: 'unavailable', message: 'The database is not answering.' } });
      }
    },
  );
};

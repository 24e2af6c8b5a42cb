import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, HealthSchema, ReadySchema } from '@carmarket/shared';
/** What readiness asks: the database always, Redis when the processes share it. */
export interface ReadinessChecks {
  database: () => Promise<unknown>;
  redis?: () => Promise<unknown>;
}

/** Liveness (the process answers) and readiness (what it depends on answers) for load balancers. */
export const systemRoutes: FastifyPluginAsyncZod<{ checks: ReadinessChecks }> = async (
  app,
  { checks },
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
        summary: 'The database (and Redis, when configured) answers',
        response: { 200: ReadySchema, 503: ApiErrorSchema },
      },
      logLevel: 'warn',
    },
    async (request, reply) => {
      for (const [name, check] of Object.entries(checks)) {
        try {
          await check();
        } catch (error) {
          request.log.warn({ err: error }, `${name} is not answering`);
          const what = name === 'redis' ? 'Redis' : 'The database';
          return reply
            .status(503)
            .send({ error: { code: 'unavailable', message: `${what} is not answering.` } });
        }
      }
      return {
        status: 'ready' as const,
        database: 'up' as const,
        ...(checks.redis ? { redis: 'up' as const } : {}),
      };
    },
  );
};

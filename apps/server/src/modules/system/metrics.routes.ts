import type { FastifyPluginAsync } from 'fastify';
import type { Registry } from 'prom-client';
import { sameSecret } from '../../lib/signing.ts';

/**
 * `GET /metrics`: this process's metrics in Prometheus's text format (decision 040), for
 * `Authorization: Bearer <METRICS_TOKEN>` only. Registered only when METRICS_TOKEN is set;
 * without it the path is unknown (404). Each process answers for itself: scrape every one.
 */
export const metricsRoutes: FastifyPluginAsync<{ registry: Registry; token: string }> = async (
  app,
  { registry, token },
) => {
  const expected = `Bearer ${token}`;
  app.get(
    '/metrics',
    // Not in the API's document: it is the operator's, not the web app's.
    { schema: { hide: true } },
    async (request, reply) => {
      const given = request.headers.authorization ?? '';
      if (!sameSecret(given, expected)) {
        return reply.status(401).send({
          error: { code: 'unauthenticated', message: 'Send the metrics token as a bearer token.' },
        });
      }
      const text = await registry.metrics();
      return reply
        .header('content-type', registry.contentType)
        .header('cache-control', 'no-store')
        .send(text);
    },
  );
};

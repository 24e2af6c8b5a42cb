import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../lib/metrics.ts';

/**
 * The request id on every answer (`X-Request-Id`, decision 039), and one JSON line per answered
 * request (decision 040) in place of Fastify's two, whose request serializer wrote the raw URL
 * with the tokens some links carry: the request id (`reqId`), the route pattern (`/api/listings/:id`, never the path), method,
 * status, time and the signed-in person's id. Never cookies, headers, queries or bodies. Routes
 * that log at `warn` (the health checks) write none. With metrics, the same numbers feed
 * `http_request_duration_seconds`.
 */
export const requestLogPlugin = fp(
  async (app: FastifyInstance, { metrics }: { metrics: Metrics | undefined }) => {
    // Every answer names its request, so a complaint finds its log line ("quote this code").
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url;
      const { method } = request;
      const status = reply.statusCode;
      const ms = reply.elapsedTime;
      metrics?.observeRequest(route, method, status, ms);
      request.log.info(
        {
          route: route ?? 'unmatched',
          method,
          status,
          ms: Math.round(ms * 10) / 10,
          userId: request.user?.id,
        },
        'request',
      );
      done();
    });
  },
  { name: 'request-log' },
);

import { randomUUID } from 'node:crypto';
import { LogController, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { errorSerializer } from './lib/log-errors.ts';
import { acceptableRequestId, fastifyTrust, trustsPeer } from './lib/proxy-trust.ts';

/**
 * How the server itself is made: its log, whom it believes about the client (decision 039), the
 * id of each request, and its limits on slow clients, bodies and addresses.
 */
export function serverOptions(
  config: Config,
  logger: FastifyServerOptions['logger'],
): FastifyServerOptions {
  const trustedPeer = trustsPeer(config.TRUST_PROXY);
  return {
    // Errors are logged without the values a failed statement carried (decision 040).
    logger:
      typeof logger === 'boolean'
        ? logger
        : {
            level: config.LOG_LEVEL,
            ...logger,
            serializers: { ...logger?.serializers, err: errorSerializer },
          },
    trustProxy: fastifyTrust(config.TRUST_PROXY),
    forceCloseConnections: 'idle',
    // Fastify's own two lines a request log the raw URL, tokens in links included: the request
    // log plugin writes one line of its own instead (decision 040).
    logController: new LogController({ disableRequestLogging: true }),
    // Unique across processes, so the id a client reports finds one request in the logs; a
    // trusted proxy's own (nginx's $request_id) is kept, so its log and ours share it.
    genReqId: (request) => {
      const sent = request.headers['x-request-id'];
      return trustedPeer(request.socket.remoteAddress) && acceptableRequestId(sent)
        ? sent
        : randomUUID();
    },
    // Slow or silent clients are not held forever (slowloris): idle sockets and requests that
    // take too long to arrive are closed.
    connectionTimeout: config.REQUEST_TIMEOUT_SECONDS * 1000,
    requestTimeout: config.REQUEST_TIMEOUT_SECONDS * 1000,
    bodyLimit: 1_048_576,
    // Listings and uploads are addressed by UUID; long garbage URLs get a plain 404.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    // Errors Fastify raises before routing (bad URL, over-long parameter) get our shape too.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void (reply as FastifyReply).status(status).send({
        error: { code: 'bad-request', message: 'The address is malformed or too long.' },
      });
    },
  };
}

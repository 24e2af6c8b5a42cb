import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Processors call these from their servers; each request is verified by its signature. */
const EXEMPT = /^\/api\/payments\/webhook\//;

/** The origin a request says it came from: its Origin header, else its Referer's origin. */
function requestOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') return origin;
  const referer = request.headers.referer;
  if (typeof referer !== 'string' || referer === '') return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid';
  }
}

/**
 * Cross-site request forgery defence for the whole API (decision 008). A request that changes
 * something is refused (403) when a browser could have sent it from another site with the
 * person's cookie: it carries the session cookie and its Origin (or Referer) is not one of the
 * site's own, or it names neither. A bearer token is proof enough: no other site can attach one.
 * Requests without a cookie are let through, since there is no ambient credential to abuse
 * (sign-up and sign-in from API clients). Bodies must be JSON (or multipart on the upload
 * route), which Fastify's parsers enforce with 415: a form post from another site never parses.
 */
export const csrfPlugin = fp(
  async (app: FastifyInstance, { trustedOrigins }: { trustedOrigins: () => string[] }) => {
    app.addHook('onRequest', async (request) => {
      if (!STATE_CHANGING.has(request.method) || !request.url.startsWith('/api/')) return;
      if (EXEMPT.test(request.url)) return;
      if (/^bearer\s/i.test(request.headers.authorization ?? '')) return;
      if (!request.headers.cookie) return;
      const origin = requestOrigin(request);
      if (origin !== undefined && trustedOrigins().includes(origin)) return;
      throw new AppError(
        403,
        'forbidden',
        origin === undefined
          ? 'This request does not say which site it came from, so it was refused. Send it from the CarMarket pages, or with a bearer token.'
          : 'This request came from another site, so it was refused.',
      );
    });
  },
);

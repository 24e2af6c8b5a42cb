import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { authorize } from '../../lib/policy.ts';
import { listingPolicy } from './listings.policy.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Route hook (preValidation) of the calls that show cars on sale: search, a category's page, a
     * car's page. The caller is resolved when they bring a session; without one they pass only
     * where the site lets people browse signed out (`listingPolicy.canBrowse`, BROWSE_SIGNED_OUT,
     * decision 028), else 401 as `authenticate` answers.
     */
    mayBrowse(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

/** Decorates `mayBrowse`, after the auth plugin; the one place the setting opens anything. */
export const browsingPlugin = fp(
  async (app: FastifyInstance, site: { browseSignedOut: boolean }) => {
    const { browseSignedOut } = site;
    app.decorate('mayBrowse', async (request: FastifyRequest, reply: FastifyReply) => {
      await app.identify(request, reply);
      authorize(listingPolicy.canBrowse(request.user, { browseSignedOut }));
    });
  },
);

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema, SellerProfileSchema } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { sellerPolicy } from './sellers.policy.ts';
import { presentSellerProfile } from './sellers.presenter.ts';
import { carCounts, findSellerAccount, keptReplyFigures } from './sellers.service.ts';

/** A seller's public profile (issue 32): who they are, their cars' counts, how they reply. */
export const sellerProfileRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const replyFigures = keptReplyFigures(db);
  app.get(
    '/sellers/:id',
    {
      // Whoever may see cars (signed in, or anyone where BROWSE_SIGNED_OUT opens browsing).
      preValidation: app.mayBrowse,
      schema: {
        tags: ['sellers'],
        summary:
          "A seller's profile: name, photo, verified, member since, cars on sale and sold, and the median reply time and reply rate of the last 90 days' conversations (null under 3); 404 for an account that is not a seller's or was deleted",
        params: IdParamsSchema,
        response: { 200: SellerProfileSchema, ...errorResponses },
      },
    },
    async (request) => {
      const seller = await findSellerAccount(db, request.params.id);
      if (!seller) throw notFound('That seller');
      authorize(sellerPolicy.canSeeProfile(request.user, seller));
      // One after another: a profile holds one connection at a time.
      const cars = await carCounts(db, seller.id);
      const replies = await replyFigures(seller.id);
      return presentSellerProfile(seller, cars, replies);
    },
  );
};

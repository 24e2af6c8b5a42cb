import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, IdParamsSchema, SellerProfileSchema } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import { addressKey } from '../../lib/proxy-trust.ts';
import { formatWait, spend, type CounterStore } from '../../lib/rate-limit.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { sellerPolicy } from './sellers.policy.ts';
import { presentSellerProfile } from './sellers.presenter.ts';
import { carCounts, findSellerAccount, keptReplyFigures } from './sellers.service.ts';

/** A seller's public profile (issue 32): who they are, their cars' counts, how they reply. */
export const sellerProfileRoutes: FastifyPluginAsyncZod<{
  db: Db;
  counters: CounterStore;
  /** SELLER_PROFILE_LIMIT_PER_MINUTE: profiles a person, or an address signed out, may open. */
  perMinute: number;
}> = async (app, { db, counters, perMinute }) => {
  const replyFigures = keptReplyFigures(db);
  app.get(
    '/sellers/:id',
    {
      // Whoever may see cars (signed in, or anyone where BROWSE_SIGNED_OUT opens browsing).
      preValidation: app.mayBrowse,
      schema: {
        tags: ['sellers'],
        summary:
          "A seller's profile: name, photo, verified, member since, cars on sale and sold, and the median reply time and reply rate of the last 90 days' conversations (null under 3); 404 for an account that is not a seller's or was deleted; 429 past SELLER_PROFILE_LIMIT_PER_MINUTE a person (an address signed out)",
        params: IdParamsSchema,
        response: { 200: SellerProfileSchema, ...errorResponses, 429: ApiErrorSchema },
      },
    },
    async (request) => {
      // Cheap now (decision 048), but each still costs a few statements: counted per person, or
      // per address signed out, so a flood that heeds Retry-After leaves others alone (046).
      const who = request.user ? `user:${request.user.id}` : `ip:${addressKey(request.ip)}`;
      await spend(
        counters,
        [
          {
            key: `seller-profile:${who}`,
            max: perMinute,
            windowMs: 60_000,
            message: (seconds) =>
              `You have opened ${perMinute} seller profiles in the last minute, the most we allow. Try again in ${formatWait(seconds)}.`,
          },
        ],
        { unavailable: 'Seller profiles are unavailable for a moment. Please try again shortly.' },
      );
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

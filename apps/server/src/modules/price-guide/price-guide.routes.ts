import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PriceGuideQuerySchema, PriceGuideSchema } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { guard } from '../../plugins/auth.ts';
import { priceGuidePolicy } from './price-guide.policy.ts';
import { guideFor } from './price-guide.service.ts';

/** The seller's guide (decision 032): what a car described so far is worth, in the site's currency. */
export const priceGuideRoutes: FastifyPluginAsyncZod<{ db: Db; currency: string }> = async (
  app,
  { db, currency },
) => {
  app.get(
    '/price-guide',
    {
      preValidation: [app.authenticate, guard(priceGuidePolicy.canAsk)],
      schema: {
        tags: ['price guide'],
        summary:
          'The fair price and typical range of a car by make, model, year and mileage, from similar cars (minor units)',
        querystring: PriceGuideQuerySchema,
        response: { 200: PriceGuideSchema, ...errorResponses },
      },
    },
    async (request) => {
      const guide = await guideFor(db, request.query, currency);
      if (!guide) {
        throw new AppError(404, 'not-found', 'Not enough similar cars to rate this price.');
      }
      return guide;
    },
  );
};

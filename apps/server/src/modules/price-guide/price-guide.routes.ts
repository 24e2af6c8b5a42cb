import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PriceGuideQuerySchema, PriceGuideSchema } from '@carmarket/shared';
import { AppError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { guard } from '../../plugins/auth.ts';
import type { SearchBudget } from '../search/search-budget.ts';
import { priceGuidePolicy } from './price-guide.policy.ts';
import { guideFor } from './price-guide.service.ts';

/**
 * The seller's guide (decision 032): what a car described so far is worth, in the site's currency.
 * Within the search budget (decision 048): a person asking it by the dozen at once reads as many
 * fits, and must leave the database to everyone else as a person searching must.
 */
export const priceGuideRoutes: FastifyPluginAsyncZod<{
  budget: SearchBudget;
  currency: string;
}> = async (app, { budget, currency }) => {
  app.get(
    '/price-guide',
    {
      preValidation: [app.authenticate, guard(priceGuidePolicy.canAsk)],
      schema: {
        tags: ['price guide'],
        summary:
          'The fair price and typical range of a car by make, model, year and mileage, from similar cars (minor units; within the search budget: 429 past it, 503 when busy)',
        querystring: PriceGuideQuerySchema,
        response: { 200: PriceGuideSchema, ...errorResponses },
      },
    },
    async (request) => {
      const guide = await budget.run(request, (db) => guideFor(db, request.query, currency));
      if (!guide) {
        throw new AppError(404, 'not-found', 'Not enough similar cars to rate this price.');
      }
      return guide;
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, SearchQuerySchema, SearchResultSchema } from '@carmarket/shared';
import { errorResponses } from '../../lib/route-schemas.ts';
import type { SearchBudget } from './search-budget.ts';
import { presentSearchItem } from './search.presenter.ts';
import { searchListings } from './search.service.ts';

export const searchRoutes: FastifyPluginAsyncZod<{ budget: SearchBudget }> = async (
  app,
  { budget },
) => {
  app.get(
    '/listings',
    {
      // Signed in, like category pages (the spec shows cars to people with an account), or anyone
      // where the site opens browsing (decision 028).
      preValidation: app.mayBrowse,
      schema: {
        tags: ['listings'],
        summary:
          'Search cars on sale: text, filters, distance, sort, keyset pages and facet counts (signed in, or anyone where BROWSE_SIGNED_OUT opens browsing; within the search budget: 429 past it, 503 when a search takes too long)',
        querystring: SearchQuerySchema,
        response: {
          200: SearchResultSchema,
          ...errorResponses,
          429: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      const found = await budget.run(request, (db) => searchListings(db, request.query));
      return {
        items: found.rows.map(presentSearchItem),
        total: found.total,
        totalIsEstimate: found.totalIsEstimate,
        nextCursor: found.nextCursor,
        ...(found.facets && { facets: found.facets }),
      };
    },
  );
};

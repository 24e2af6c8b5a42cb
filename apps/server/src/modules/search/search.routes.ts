import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SearchQuerySchema, SearchResultSchema } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { presentSearchItem } from './search.presenter.ts';
import { searchListings } from './search.service.ts';

export const searchRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/listings',
    {
      // Signed in, like category pages: the spec shows cars to people with an account.
      preValidation: app.authenticate,
      schema: {
        tags: ['listings'],
        summary:
          'Search cars on sale: text, filters, distance, sort, keyset pages and facet counts (signed in)',
        querystring: SearchQuerySchema,
        response: { 200: SearchResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const found = await searchListings(db, request.query);
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

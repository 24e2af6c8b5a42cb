import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiErrorSchema,
  CategoryDetailSchema,
  CategoryListSchema,
  IdParamsSchema,
  PageQuerySchema,
} from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { presentListingCard } from '../listings/listings.presenter.ts';
import type { SearchBudget } from '../search/search-budget.ts';
import type { searchListings } from '../search/search.service.ts';
import { presentCategory, presentCategorySummary } from './categories.presenter.ts';
import { findCategory, listCategories } from './categories.service.ts';

export const categoryRoutes: FastifyPluginAsyncZod<{
  db: Db;
  budget: SearchBudget;
  /**
   * The search (a feature), handed in by app.ts: a core module imports no feature (decision 026),
   * and a category's page is a search of it.
   */
  search: typeof searchListings;
}> = async (app, { db, budget, search }) => {
  app.get(
    '/category',
    {
      schema: {
        tags: ['categories'],
        summary: 'All categories with the number of cars available in each',
        response: { 200: CategoryListSchema },
      },
    },
    async (_request, reply) => {
      // Not kept by browsers: a category an admin adds or renames shows on the next load.
      reply.header('cache-control', 'no-cache');
      return (await listCategories(db)).map(presentCategorySummary);
    },
  );

  app.get(
    '/category/:id',
    {
      preValidation: app.mayBrowse,
      schema: {
        tags: ['categories'],
        summary:
          'A category and a page of its cars on sale, newest first (signed in, or anyone where BROWSE_SIGNED_OUT opens browsing; limit, cursor and budget as for search)',
        params: IdParamsSchema,
        querystring: PageQuerySchema,
        response: {
          200: CategoryDetailSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          429: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      const found = await findCategory(db, request.params.id);
      if (!found) throw notFound('That category');
      // A page of a category is a search of it, and counts against the same budget.
      const page = await budget.run(request, (searchDb) =>
        search(searchDb, {
          category: found.id,
          sort: 'newest',
          limit: request.query.limit,
          cursor: request.query.cursor,
        }),
      );
      return {
        ...presentCategory(found),
        listings: page.rows.map(presentListingCard),
        total: page.total,
        nextCursor: page.nextCursor,
      };
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiErrorSchema,
  CategoryDetailSchema,
  CategoryListSchema,
  IdParamsSchema,
} from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { presentListingCard } from '../listings/listings.presenter.ts';
import { availableListingsOfCategory } from '../listings/listings.service.ts';
import { presentCategory, presentCategorySummary } from './categories.presenter.ts';
import { findCategory, listCategories } from './categories.service.ts';

export const categoryRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
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
      reply.header('cache-control', 'public, max-age=30');
      return (await listCategories(db)).map(presentCategorySummary);
    },
  );

  app.get(
    '/category/:id',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['categories'],
        summary: 'A category and its cars that can be booked now (signed in)',
        params: IdParamsSchema,
        response: {
          200: CategoryDetailSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      const found = await findCategory(db, request.params.id);
      if (!found) throw notFound('That category');
      const listings = await availableListingsOfCategory(db, found.id);
      return { ...presentCategory(found), listings: listings.map(presentListingCard) };
    },
  );
};

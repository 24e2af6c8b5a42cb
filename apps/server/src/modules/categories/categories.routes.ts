import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, CategoryListSchema, IdParamsSchema } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { unauthenticated } from '../../lib/errors.ts';
import { presentCategorySummary } from './categories.presenter.ts';
import { listCategories } from './categories.service.ts';

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
      schema: {
        tags: ['categories'],
        summary: 'A category and its available cars (signed in)',
        params: IdParamsSchema,
        response: { 401: ApiErrorSchema, 400: ApiErrorSchema },
      },
    },
    // Accounts come next; until then nobody is signed in, so this is always 401 by design.
    async () => {
      throw unauthenticated('Sign in to see the cars in this category.');
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AcknowledgedSchema,
  AdminCategoryListSchema,
  CategoryIconListSchema,
  CreateCategorySchema,
  CreatedCategorySchema,
  DeleteCategorySchema,
  DeletedCategorySchema,
  IdParamsSchema,
  UpdateCategorySchema,
} from '@carmarket/shared';
import type { Storage } from '../../adapters/storage.ts';
import type { Db } from '../../db/client.ts';
import type { DomainEvents } from '../../lib/events.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { currentUser, guard } from '../../plugins/auth.ts';
import { presentAdminCategory } from './categories.presenter.ts';
import { categoryPolicy } from './categories.policy.ts';
import {
  addCategory,
  categoriesForAdmin,
  deleteCategory,
  updateCategory,
} from './category-admin.service.ts';
import { iconOptions } from './category-icons.ts';

/**
 * The categories an admin runs (issue 33): add, rename, reorder, give another icon, delete
 * (moving its cars). Everyone reads them through `GET /api/category` (categories.routes.ts).
 */
export const categoryAdminRoutes: FastifyPluginAsyncZod<{
  db: Db;
  storage: Storage;
  /** Where a deleted category is told (saved searches within it follow its cars). */
  events: DomainEvents;
}> = async (app, { db, storage, events }) => {
  const adminOnly = [app.authenticate, guard(categoryPolicy.canManage)];

  app.get(
    '/categories',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['categories'],
        summary: 'Every category in order, with its cars in every state (admins)',
        response: { 200: AdminCategoryListSchema, ...errorResponses },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return (await categoriesForAdmin(db)).map(presentAdminCategory);
    },
  );

  app.get(
    '/categories/icons',
    {
      schema: {
        tags: ['categories'],
        summary: 'The icons a category may have, each with its name in words and its image',
        response: { 200: CategoryIconListSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return iconOptions(storage);
    },
  );

  app.post(
    '/categories',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['categories'],
        summary:
          'Add a category at the end of the list (admins); `icon` from `GET /categories/icons`. 201 with its id',
        body: CreateCategorySchema,
        response: { 201: CreatedCategorySchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id } = await addCategory(db, storage, currentUser(request), request.body);
      return reply.status(201).send({ _id: id });
    },
  );

  app.patch(
    '/categories/:id',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['categories'],
        summary:
          'Rename a category, give it another icon, or move it to `position` (from 0) in the list (admins)',
        params: IdParamsSchema,
        body: UpdateCategorySchema,
        response: { 200: AcknowledgedSchema, ...errorResponses },
      },
    },
    async (request) => {
      await updateCategory(db, storage, currentUser(request), request.params.id, request.body);
      return { acknowledged: true as const };
    },
  );

  app.delete(
    '/categories/:id',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['categories'],
        summary:
          'Delete a category (admins). With cars (in any state) it needs `moveTo`, the category that takes them (409 without; 400 when it is itself or none)',
        params: IdParamsSchema,
        body: DeleteCategorySchema,
        response: { 200: DeletedCategorySchema, ...errorResponses },
      },
    },
    async (request) => {
      const { carsMoved } = await deleteCategory(
        db,
        events,
        currentUser(request),
        request.params.id,
        request.body?.moveTo,
      );
      return { acknowledged: true as const, carsMoved };
    },
  );
};

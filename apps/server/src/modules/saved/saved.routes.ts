import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AcknowledgedSchema,
  CreateSavedSearchSchema,
  IdParamsSchema,
  InsertedSchema,
  ListingIdParamsSchema,
  SavedCarListSchema,
  SavedCarStateSchema,
  SavedSearchListSchema,
  UnsubscribeQuerySchema,
  UnsubscribeResultSchema,
  UpdateSavedSearchSchema,
} from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { currentUser, guard } from '../../plugins/auth.ts';
import { saveCar, savedCarsOf, unsaveCar } from './saved-cars.service.ts';
import {
  createSavedSearch,
  deleteSavedSearch,
  savedSearchesOf,
  updateSavedSearch,
} from './saved-searches.service.ts';
import { presentSavedCar, presentSavedSearch } from './saved.presenter.ts';
import { savedPolicy } from './saved.policy.ts';
import { turnOffMail, type UnsubscribeTokens } from './unsubscribe.ts';

/** Saved cars and saved searches (signed-in buyers, each their own) and unsubscribe links. */
export const savedRoutes: FastifyPluginAsyncZod<{
  db: Db;
  unsubscribe: UnsubscribeTokens;
}> = async (app, { db, unsubscribe }) => {
  const buyer = { preValidation: [app.authenticate, guard(savedPolicy.canKeepTrack)] };

  app.put(
    '/saved-cars/:listingId',
    {
      ...buyer,
      schema: {
        tags: ['saved'],
        summary: 'Save a car (idempotent; at most 500)',
        params: ListingIdParamsSchema,
        response: { 200: SavedCarStateSchema, ...errorResponses },
      },
    },
    async (request) => {
      await saveCar(db, currentUser(request), request.params.listingId);
      return { listingId: request.params.listingId, saved: true };
    },
  );

  app.delete(
    '/saved-cars/:listingId',
    {
      ...buyer,
      schema: {
        tags: ['saved'],
        summary: 'Forget a saved car (idempotent)',
        params: ListingIdParamsSchema,
        response: { 200: SavedCarStateSchema, ...errorResponses },
      },
    },
    async (request) => {
      await unsaveCar(db, currentUser(request), request.params.listingId);
      return { listingId: request.params.listingId, saved: false };
    },
  );

  app.get(
    '/saved-cars',
    {
      ...buyer,
      schema: {
        tags: ['saved'],
        summary: 'My saved cars as they are now, with the price when saved',
        response: { 200: SavedCarListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const rows = await savedCarsOf(db, currentUser(request).id);
      return rows.map(presentSavedCar);
    },
  );

  app.post(
    '/saved-searches',
    {
      ...buyer,
      schema: {
        tags: ['saved'],
        summary: "Save a search: `query` is the search call's query string (at most 50)",
        body: CreateSavedSearchSchema,
        response: { 200: InsertedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = await createSavedSearch(db, currentUser(request), request.body);
      return { acknowledged: true as const, insertedId: id };
    },
  );

  app.get(
    '/saved-searches',
    {
      ...buyer,
      schema: {
        tags: ['saved'],
        summary: 'My saved searches, each with `matching` and `newSinceVisit` counts',
        response: { 200: SavedSearchListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const rows = await savedSearchesOf(db, currentUser(request).id);
      return rows.map(presentSavedSearch);
    },
  );

  app.patch(
    '/saved-searches/:id',
    {
      ...buyer,
      schema: {
        tags: ['saved'],
        summary: 'Rename a saved search, choose its alerts, or mark it visited',
        params: IdParamsSchema,
        body: UpdateSavedSearchSchema,
        response: { 200: AcknowledgedSchema, ...errorResponses },
      },
    },
    async (request) => {
      await updateSavedSearch(db, currentUser(request), request.params.id, request.body);
      return { acknowledged: true as const };
    },
  );

  app.delete(
    '/saved-searches/:id',
    {
      ...buyer,
      schema: {
        tags: ['saved'],
        summary: 'Delete a saved search',
        params: IdParamsSchema,
        response: { 200: AcknowledgedSchema, ...errorResponses },
      },
    },
    async (request) => {
      await deleteSavedSearch(db, currentUser(request), request.params.id);
      return { acknowledged: true as const };
    },
  );

  await app.register(async (plain) => {
    const links = plain.withTypeProvider<ZodTypeProvider>();
    // Mail programs send `List-Unsubscribe=One-Click` as a form (RFC 8058); the token is all we read.
    links.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, _body, done) => done(null, undefined),
    );
    links.post(
      '/unsubscribe',
      {
        schema: {
          tags: ['saved'],
          summary:
            'One-click unsubscribe from the link in an alert mail (no sign-in: the token is signed)',
          querystring: UnsubscribeQuerySchema,
          response: { 200: UnsubscribeResultSchema, ...errorResponses },
        },
      },
      async (request) => {
        const what = unsubscribe.verify(request.query.token);
        if (!what) {
          throw new AppError(400, 'invalid-action-code', 'This unsubscribe link is not valid.', {
            field: 'token',
          });
        }
        return { unsubscribed: true as const, what: await turnOffMail(db, what) };
      },
    );
  });
};

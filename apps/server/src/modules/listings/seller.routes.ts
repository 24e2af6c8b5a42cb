import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AcknowledgedSchema,
  ApiErrorSchema,
  CreateListingSchema,
  IdParamsSchema,
  InsertedSchema,
  MyListingCountsQuerySchema,
  MyListingCountsSchema,
  MyListingListSchema,
  MyListingsQuerySchema,
  ProductQuerySchema,
  UpdateListingSchema,
} from '@carmarket/shared';
import type { Config } from '../../config.ts';
import type { DomainEvents } from '../../lib/events.ts';
import type { CounterStore } from '../../lib/rate-limit.ts';
import type { Db } from '../../db/client.ts';
import { currentUser, guard } from '../../plugins/auth.ts';
import { listingPolicy } from './listings.policy.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { Storage } from '../../adapters/storage.ts';
import { presentMyListing } from './listings.presenter.ts';
import {
  countSellerCars,
  createListing,
  pageOfSellerCars,
  relistListing,
  setAdvertised,
  updateListing,
  withdrawListing,
} from './seller.service.ts';
import { errorResponses } from '../../lib/route-schemas.ts';

export const sellerRoutes: FastifyPluginAsyncZod<{
  db: Db;
  /** Where a car listed or repriced is told (decision 026). */
  events: DomainEvents;
  storage: Storage;
  mailer: Mailer;
  config: Config;
  /** The shared counters: relisting a car can mail the buyers who saved it, so it is limited. */
  counters: CounterStore;
}> = async (app, { db, events, storage, mailer, config, counters }) => {
  const sellerOnly = [app.authenticate, guard(listingPolicy.canSell)];
  const site = { requireVerifiedEmail: config.REQUIRE_VERIFIED_EMAIL };
  const relistLimit = { counters, perDay: config.RELIST_LIMIT_PER_DAY };

  app.post(
    '/product',
    {
      preValidation: [app.authenticate, guard((actor) => listingPolicy.canList(actor, site))],
      config: { fieldNames: { querystring: { name: 'category' } } },
      schema: {
        tags: ['listings'],
        summary: 'Add a car (sellers); `name` in the query is the category',
        querystring: ProductQuerySchema,
        body: CreateListingSchema,
        response: { 200: InsertedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = await createListing(
        db,
        events,
        storage,
        currentUser(request),
        request.query.name,
        request.body,
        config.CURRENCY,
      );
      return { acknowledged: true as const, insertedId: id };
    },
  );

  app.get(
    '/my/listings',
    {
      preValidation: sellerOnly,
      schema: {
        tags: ['listings'],
        summary:
          "The seller's own cars with bookings, Sold/Unsold and the last 30 days' views, saves and conversations, newest first: all of them, or with `limit` (and then `cursor`) a page, its total in X-Total-Count and where the next starts in X-Next-Cursor. `status` (available, reserved, sold, withdrawn; repeated or comma-separated: any of them), `q` (name, make, model or VIN) and `sort` (newest, oldest, price_asc, price_desc, views: the most viewed in 30 days first, an approximate order as counts can grow between pages) narrow and order either",
        querystring: MyListingsQuerySchema,
        response: { 200: MyListingListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { limit, cursor } = request.query;
      const page = await pageOfSellerCars(db, currentUser(request).id, request.query);
      // Without limit or cursor, every car that matches, as the call has always answered.
      if (limit !== undefined || cursor !== undefined) {
        reply.header('x-total-count', String(page.total));
        if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
      }
      return page.rows.map(presentMyListing);
    },
  );

  app.get(
    '/my/listings/counts',
    {
      preValidation: sellerOnly,
      schema: {
        tags: ['listings'],
        summary:
          "How many of the seller's own cars are in each state (My cars' tabs); with `q`, of those the search finds",
        querystring: MyListingCountsQuerySchema,
        response: { 200: MyListingCountsSchema, ...errorResponses },
      },
    },
    async (request) => countSellerCars(db, currentUser(request).id, request.query),
  );

  // PATCH is the right verb; PUT is accepted too, for clients that only speak GET/POST/PUT/DELETE.
  app.route({
    method: ['PATCH', 'PUT'],
    url: '/listings/:id',
    preValidation: sellerOnly,
    schema: {
      tags: ['listings'],
      summary: 'Edit one of your cars (available or withdrawn)',
      params: IdParamsSchema,
      body: UpdateListingSchema,
      response: { 200: AcknowledgedSchema, ...errorResponses },
    },
    handler: async (request) => {
      await updateListing(
        db,
        events,
        storage,
        currentUser(request),
        request.params.id,
        request.body,
      );
      return { acknowledged: true as const };
    },
  });

  app.post(
    '/listings/:id/withdraw',
    {
      preValidation: sellerOnly,
      schema: {
        tags: ['listings'],
        summary: 'Withdraw one of your available cars; its open bookings close',
        params: IdParamsSchema,
        response: { 200: AcknowledgedSchema, ...errorResponses },
      },
    },
    async (request) => {
      await withdrawListing(db, mailer, currentUser(request), request.params.id);
      return { acknowledged: true as const };
    },
  );

  app.post(
    '/listings/:id/relist',
    {
      preValidation: sellerOnly,
      schema: {
        tags: ['listings'],
        summary:
          'Put one of your withdrawn cars back on sale, with its photos, saves and history; the buyers who saved it are told (RELIST_LIMIT_PER_DAY a day)',
        params: IdParamsSchema,
        // 429 past the day's limit, 503 while the shared counters are away.
        response: {
          200: AcknowledgedSchema,
          ...errorResponses,
          429: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      await relistListing(db, events, relistLimit, currentUser(request), request.params.id);
      return { acknowledged: true as const };
    },
  );

  for (const [method, advertised] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/listings/:id/advertise',
      preValidation: sellerOnly,
      schema: {
        tags: ['listings'],
        summary: advertised
          ? 'Advertise one of your available cars on the home page'
          : 'Stop advertising a car',
        params: IdParamsSchema,
        response: { 200: AcknowledgedSchema, ...errorResponses },
      },
      handler: async (request) => {
        await setAdvertised(db, currentUser(request), request.params.id, advertised);
        return { acknowledged: true as const };
      },
    });
  }
};

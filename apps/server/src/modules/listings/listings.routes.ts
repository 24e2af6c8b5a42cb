import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiErrorSchema,
  CardsByIdQuerySchema,
  CardsByIdSchema,
  IdParamsSchema,
  ListingCardSchema,
  ListingDetailSchema,
  SimilarCarsSchema,
} from '@carmarket/shared';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { listingPolicy } from './listings.policy.ts';
import { presentListingCard, presentListingDetail } from './listings.presenter.ts';
import { advertisedListings, findCards, findListing, soldAt } from './listings.service.ts';
import { priceHistory } from './price-history.ts';
import { findSimilarCars } from './similar.ts';

/**
 * Told of each car page a signed-in person opened (the stats feature counts views, decision
 * 027): it must return at once, and leave any work for after the answer.
 */
export type CarViewed = (car: { id: string; sellerId: string }, viewer: SessionUser) => void;

export const listingRoutes: FastifyPluginAsyncZod<{ db: Db; viewed?: CarViewed }> = async (
  app,
  { db, viewed },
) => {
  // The car page and its similar cars both start from the car, which must exist.
  const carOr404 = async (id: string) => {
    const car = await findListing(db, id);
    if (!car) throw notFound('That car');
    return car;
  };

  app.get(
    '/listings/:id',
    {
      preValidation: app.mayBrowse,
      schema: {
        tags: ['listings'],
        summary:
          'One car with its photos, description and seller (signed in, or anyone where BROWSE_SIGNED_OUT opens browsing)',
        params: IdParamsSchema,
        response: {
          200: ListingDetailSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      const viewer = request.user;
      const car = await carOr404(request.params.id);
      authorize(listingPolicy.canSeePage(viewer, car));
      // Views of people with an account: a visitor signed out (or a crawler) is not counted.
      if (viewer) viewed?.(car, viewer);
      return Object.assign(presentListingDetail(car), {
        listedAt: car.createdAt.toISOString(),
        priceHistory: await priceHistory(db, car),
        soldAt: car.status === 'sold' ? (await soldAt(db, car)).toISOString() : null,
      });
    },
  );

  // Read-only and not a view: the stats feature counts a car's views from GET /listings/:id only.
  app.get(
    '/listings/cards',
    {
      preValidation: app.mayBrowse,
      schema: {
        tags: ['listings'],
        summary:
          "Up to 12 cars by id, as cards, in the order asked; cars that do not exist or were removed are left out (the web app's recently viewed cars)",
        querystring: CardsByIdQuerySchema,
        response: { 200: CardsByIdSchema, 400: ApiErrorSchema, 401: ApiErrorSchema },
      },
    },
    async (request) => {
      const { ids } = request.query;
      const found = new Map(
        (await findCards(db, ids))
          .filter((car) => listingPolicy.canSeePage(request.user, car).ok)
          .map((car) => [car.id, car]),
      );
      return {
        items: [...new Set(ids)].flatMap((id) => {
          const car = found.get(id);
          return car ? [presentListingCard(car)] : [];
        }),
      };
    },
  );

  app.get(
    '/listings/:id/similar',
    {
      preValidation: app.mayBrowse,
      schema: {
        tags: ['listings'],
        summary:
          'Up to 8 cars on sale like this one (same make and model, then same body type near its price and year); for a sold or withdrawn car too',
        params: IdParamsSchema,
        response: {
          200: SimilarCarsSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      const car = await carOr404(request.params.id);
      authorize(listingPolicy.canSeePage(request.user, car));
      return { items: (await findSimilarCars(db, car)).map(presentListingCard) };
    },
  );

  app.get(
    '/advertised',
    {
      schema: {
        tags: ['listings'],
        summary: 'Advertised cars that can be booked now (public; the home page)',
        response: { 200: z.array(ListingCardSchema) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=15');
      return (await advertisedListings(db)).map(presentListingCard);
    },
  );
};

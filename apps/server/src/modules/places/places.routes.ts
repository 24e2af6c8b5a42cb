import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PlaceSchema, PlacesQuerySchema } from '@carmarket/shared';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas.ts';
import { searchPlaces } from './gazetteer.ts';

export const placeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/places',
    {
      schema: {
        tags: ['listings'],
        summary:
          "Places whose name starts with q, largest first, or US ZIPs starting with q's digits, for location type-aheads (public)",
        querystring: PlacesQuerySchema,
        response: { 200: z.array(PlaceSchema), 400: errorResponses[400] },
      },
    },
    async (request, reply) => {
      // The gazetteer ships with the release, so an answer holds for a day.
      reply.header('cache-control', 'public, max-age=86400');
      return searchPlaces(request.query.q, request.query.limit ?? 8);
    },
  );
};

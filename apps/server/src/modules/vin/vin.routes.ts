import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema, VinDecodeSchema, VinParamsSchema } from '@carmarket/shared';
import { errorResponses } from '../../lib/route-schemas.ts';
import { currentUser, guard } from '../../plugins/auth.ts';
import { vinPolicy } from './vin.policy.ts';
import { decodeVinFor, type VinDeps } from './vin.service.ts';

/** Decoding a VIN offline (decision 033). */
export const vinRoutes: FastifyPluginAsyncZod<{ deps: VinDeps }> = async (app, { deps }) => {
  app.get(
    '/vin/:vin',
    {
      preValidation: [app.authenticate, guard(vinPolicy.canDecode)],
      schema: {
        tags: ['vin'],
        summary:
          'What a VIN decodes as, from the NHTSA vPIC data: 400 when malformed or its check digit is wrong, 404 when it cannot be decoded',
        params: VinParamsSchema,
        response: {
          200: VinDecodeSchema,
          ...errorResponses,
          429: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
    },
    async (request) => decodeVinFor(deps, currentUser(request), request.params.vin),
  );
};

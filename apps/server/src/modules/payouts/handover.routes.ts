import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BookingSchema,
  DisputePageSchema,
  DisputeSchema,
  DisputesQuerySchema,
  IdParamsSchema,
  OpenDisputeSchema,
  ResolveDisputeSchema,
} from '@carmarket/shared';
import { errorResponses } from '../../lib/route-schemas.ts';
import { currentUser, guard } from '../../plugins/auth.ts';
import { presentBooking } from '../bookings/bookings.presenter.ts';
import { presentDispute } from './disputes.presenter.ts';
import { countDisputes, listDisputes, resolveDispute } from './disputes.service.ts';
import type { PayoutDeps } from './payout-deps.ts';
import { payoutPolicy } from './payouts.policy.ts';
import { confirmHandover, openDispute } from './settlement.service.ts';

/**
 * The buyer's hand-over and dispute (`POST /api/booked/:id/handover`, `.../dispute`) and the
 * admins' disputes (`GET /api/disputes`, `POST /api/disputes/:id/resolve`), decision 037.
 */
export const handoverRoutes: FastifyPluginAsyncZod<{ deps: PayoutDeps }> = async (
  app,
  { deps },
) => {
  const adminsOnly = [app.authenticate, guard(payoutPolicy.canRuleOnDisputes)];

  app.post(
    '/booked/:id/handover',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['payouts'],
        summary:
          'Confirm the hand-over of a paid booking (its buyer): the money goes to the seller; again is harmless',
        params: IdParamsSchema,
        response: { 200: BookingSchema, ...errorResponses },
      },
    },
    async (request) =>
      presentBooking(await confirmHandover(deps, currentUser(request), request.params.id)),
  );

  app.post(
    '/booked/:id/dispute',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['payouts'],
        summary:
          'Report a problem with a paid booking (its buyer, while it awaits hand-over): the money waits until an admin rules',
        params: IdParamsSchema,
        body: OpenDisputeSchema,
        response: { 200: BookingSchema, ...errorResponses },
      },
    },
    async (request) =>
      presentBooking(
        await openDispute(deps, currentUser(request), request.params.id, request.body.reason),
      ),
  );

  app.get(
    '/disputes',
    {
      preValidation: adminsOnly,
      schema: {
        tags: ['payouts'],
        summary: 'Disputes (admins): open first, oldest first; or those of a `status`',
        querystring: DisputesQuerySchema,
        response: { 200: DisputePageSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const [page, counts] = await Promise.all([
        listDisputes(deps.db, request.query),
        countDisputes(deps.db),
      ]);
      reply.header('cache-control', 'no-store');
      return { items: page.rows.map(presentDispute), nextCursor: page.nextCursor, counts };
    },
  );

  app.post(
    '/disputes/:id/resolve',
    {
      preValidation: adminsOnly,
      schema: {
        tags: ['payouts'],
        summary:
          "Rule on a dispute (admins): release to the seller or refund the buyer's card; the same ruling again is harmless",
        params: IdParamsSchema,
        body: ResolveDisputeSchema,
        response: { 200: DisputeSchema, ...errorResponses },
      },
    },
    async (request) =>
      presentDispute(
        await resolveDispute(deps, currentUser(request), request.params.id, request.body),
      ),
  );
};

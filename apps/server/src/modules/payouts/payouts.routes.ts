import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiErrorSchema,
  BalanceSchema,
  MoneySummarySchema,
  PayoutAccountLinkSchema,
  PayoutAccountSchema,
  PayoutPageSchema,
  PayoutsQuerySchema,
} from '@carmarket/shared';
import { errorResponses } from '../../lib/route-schemas.ts';
import { currentUser, guard } from '../../plugins/auth.ts';
import { moneySummary, pageOfPayouts, sellerBalance } from './balance.service.ts';
import { payoutAccountFor, startPayoutAccount } from './payout-account.service.ts';
import type { PayoutDeps } from './payout-deps.ts';
import { payoutPolicy } from './payouts.policy.ts';
import { presentPayout } from './payouts.presenter.ts';

/**
 * A seller's balance, payouts and payout account (`/api/my/balance`, `/api/my/payouts`,
 * `/api/my/payout-account`) and the admins' money figures (`/api/admin/money`), decision 037.
 */
export const payoutRoutes: FastifyPluginAsyncZod<{ deps: PayoutDeps }> = async (app, { deps }) => {
  const seller = [app.authenticate, guard(payoutPolicy.canBePaid)];

  app.get(
    '/my/balance',
    {
      preValidation: seller,
      schema: {
        tags: ['payouts'],
        summary: "The seller's money: pending hand-over, payable, paid out",
        response: { 200: BalanceSchema, ...errorResponses },
      },
    },
    async (request) => sellerBalance(deps, currentUser(request).id),
  );

  app.get(
    '/my/payouts',
    {
      preValidation: seller,
      schema: {
        tags: ['payouts'],
        summary: "The seller's payouts, newest first, a page at a time",
        querystring: PayoutsQuerySchema,
        response: { 200: PayoutPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const page = await pageOfPayouts(deps, currentUser(request).id, request.query);
      return { items: page.rows.map(presentPayout), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/my/payout-account',
    {
      preValidation: seller,
      schema: {
        tags: ['payouts'],
        summary: "Where the seller's payouts go: none, onboarding or ready",
        response: { 200: PayoutAccountSchema, ...errorResponses },
      },
    },
    async (request) => payoutAccountFor(deps, currentUser(request)),
  );

  app.post(
    '/my/payout-account',
    {
      preValidation: seller,
      schema: {
        tags: ['payouts'],
        summary:
          "Adds the seller's payout account (once) and answers the provider's onboarding link; 429 past 10 an hour",
        response: {
          200: PayoutAccountLinkSchema,
          ...errorResponses,
          429: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
    },
    async (request) => startPayoutAccount(deps, currentUser(request)),
  );

  app.get(
    '/admin/money',
    {
      preValidation: [app.authenticate, guard(payoutPolicy.canSeeMoney)],
      schema: {
        tags: ['payouts'],
        summary: "The platform's money: held, fees earned, paid out, owed to sellers, refunded",
        response: { 200: MoneySummarySchema, ...errorResponses },
      },
    },
    async () => moneySummary(deps),
  );
};

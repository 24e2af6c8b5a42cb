import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiErrorSchema,
  CreatePaymentIntentSchema,
  HoldPaymentSchema,
  HoldResultSchema,
  PaymentConfigSchema,
  PaymentIntentResultSchema,
  RecordPaymentResultSchema,
  RecordPaymentSchema,
  SandboxConfirmSchema,
} from '@carmarket/shared';
import { AppError } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import { WebhookSignatureError } from '../../adapters/payment-gateway.ts';
import { confirmPayment, holdForPayment, startPayment } from './checkout.service.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { presentIntent, presentRecorded } from './payments.presenter.ts';
import { handleEvent } from './webhooks.service.ts';
import { holdBrowser } from './hold-browser.ts';
import type { SandboxGateway } from '../../adapters/sandbox-gateway.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { addressKey } from '../../lib/proxy-trust.ts';

export const paymentRoutes: FastifyPluginAsyncZod<{
  deps: PaymentDeps;
  holdMinutes: number;
  /** Under https (PUBLIC_URL): the hold's browser cookie is a `__Secure-` one. */
  secureCookies: boolean;
}> = async (app, { deps, holdMinutes, secureCookies }) => {
  app.get(
    '/payments/config',
    {
      schema: {
        tags: ['payments'],
        summary: 'Which card processor the payment page uses',
        response: { 200: PaymentConfigSchema },
      },
    },
    async () => ({
      provider: deps.gateway.provider,
      publishableKey: deps.gateway.publishableKey,
      holdMinutes,
    }),
  );

  app.post(
    '/create-payment-intent',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['payments'],
        summary:
          "Start paying for a booking (its buyer): answers the card form's client secret (holds nothing)",
        body: CreatePaymentIntentSchema,
        response: { 200: PaymentIntentResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const intent = await startPayment(deps, currentUser(request), request.body.bookingId);
      reply.header('cache-control', 'no-store');
      return presentIntent(intent);
    },
  );

  app.post(
    '/payments/hold',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['payments'],
        summary:
          'Hold the car while the card is confirmed (its buyer, as the card form is sent); one car per buyer, never renewed, within the hold limits (429)',
        body: HoldPaymentSchema,
        response: { 200: HoldResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { reservedUntil } = await holdForPayment(deps, currentUser(request), {
        bookingId: request.body.bookingId,
        ip: addressKey(request.ip),
        browser: holdBrowser(request, reply, secureCookies),
      });
      return { reservedUntil: reservedUntil.toISOString() };
    },
  );

  app.post(
    '/payments',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['payments'],
        summary: 'Record a payment the processor confirmed (the booking’s buyer); idempotent',
        body: RecordPaymentSchema,
        response: { 200: RecordPaymentResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const outcome = await confirmPayment(
        deps,
        currentUser(request),
        request.body.bookingId,
        request.body.transactionId,
      );
      if (outcome.result === 'refunded') {
        throw new AppError(
          409,
          'conflict',
          'The car could no longer be sold to you, so your payment was refunded in full.',
        );
      }
      return presentRecorded(outcome);
    },
  );

  await app.register(webhookRoutes, { deps });

  if (deps.gateway.provider === 'sandbox') {
    const sandbox = deps.gateway as SandboxGateway;
    app.post(
      '/payments/sandbox/confirm',
      {
        schema: {
          tags: ['payments'],
          summary:
            'Sandbox card processor: confirm a payment intent with a card (stands in for Stripe.js)',
          body: SandboxConfirmSchema,
          response: {
            200: z.object({
              paymentIntent: z.object({
                id: z.string(),
                status: z.string(),
                amount: z.number(),
                currency: z.string(),
              }),
            }),
            402: z.object({
              error: z.object({
                type: z.string(),
                code: z.string(),
                decline_code: z.string().optional(),
                message: z.string(),
              }),
            }),
            400: ApiErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const { clientSecret, card } = request.body;
        const result = await sandbox.confirm(clientSecret, card);
        if ('error' in result) return reply.status(402).send({ error: result.error });
        const { id, status, amount, currency } = result.intent;
        return { paymentIntent: { id, status, amount, currency } };
      },
    );
  }
};

/** Webhooks are verified on the exact bytes received, so this context keeps the raw body. */
async function webhookRoutes(app: FastifyInstance, { deps }: { deps: PaymentDeps }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: 512 * 1024 },
    (_request, body, done) => done(null, body),
  );

  app.post<{ Params: { provider: string } }>(
    '/payments/webhook/:provider',
    { schema: { hide: true } },
    async (request, reply) => {
      if (request.params.provider !== deps.gateway.provider) {
        throw new AppError(
          404,
          'not-found',
          `Payments are not handled by ${request.params.provider} here.`,
        );
      }
      const signature = request.headers['stripe-signature'];
      let event;
      try {
        event = deps.gateway.parseWebhook(
          request.body as Buffer,
          typeof signature === 'string' ? signature : undefined,
        );
      } catch (error) {
        if (error instanceof WebhookSignatureError || error instanceof SyntaxError) {
          throw new AppError(400, 'bad-request', 'The webhook signature does not match.');
        }
        throw error;
      }
      const outcome = await handleEvent(deps, event);
      return reply.send({ received: true, outcome });
    },
  );
}

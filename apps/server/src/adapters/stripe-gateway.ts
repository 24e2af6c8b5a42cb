import type Stripe from 'stripe';
import type { GatewayIntent, IntentStatus, PaymentGateway } from './payment-gateway.ts';
import { WebhookSignatureError } from './payment-gateway.ts';

export interface StripeOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Another API address (tests answer Stripe's few calls locally). */
  apiUrl?: string | undefined;
}

function toIntent(intent: Stripe.PaymentIntent): GatewayIntent {
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    status: intent.status as IntentStatus,
    amountCents: intent.amount,
    currency: intent.currency.toUpperCase(),
    bookingId: intent.metadata?.bookingId ?? null,
  };
}

/**
 * The look-ups before a transfer: one try of 10 s each, so that with the transfer's own three
 * tries of 20 s a payout's calls end within its two-minute lease (payout.service.ts).
 */
const LOOK_UP = { maxNetworkRetries: 0, timeout: 10_000 };

/** Stripe PaymentIntents: created on the server, confirmed by Stripe Elements in the browser. */
export async function createStripeGateway(options: StripeOptions): Promise<PaymentGateway> {
  // Loaded only with PAYMENT_PROVIDER=stripe: a sandbox server keeps ~15 MB it would not use.
  const { default: StripeClient } = await import('stripe');
  const api = options.apiUrl ? new URL(options.apiUrl) : undefined;
  const stripe = new StripeClient(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(api && {
      host: api.hostname,
      port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
      protocol: api.protocol.replace(':', '') as 'http' | 'https',
    }),
  });
  return {
    provider: 'stripe',
    publishableKey: options.publishableKey,
    async createIntent({ amountCents, currency, bookingId, idempotencyKey }) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency: currency.toLowerCase(),
          metadata: { bookingId },
          allowed_payment_method_types: ['card'],
        },
        { idempotencyKey },
      );
      return toIntent(intent);
    },
    async retrieveIntent(id) {
      if (!/^pi_[A-Za-z0-9]+$/.test(id)) return null;
      try {
        return toIntent(await stripe.paymentIntents.retrieve(id));
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw error;
      }
    },
    async cancelIntent(id) {
      await stripe.paymentIntents.cancel(id).catch(() => {});
    },
    async refund(intentId) {
      try {
        await stripe.refunds.create(
          { payment_intent: intentId },
          { idempotencyKey: `refund-${intentId}` },
        );
      } catch (error) {
        // Refunded already (asked again after Stripe forgot the key, 24 hours on): done.
        if ((error as { code?: string }).code === 'charge_already_refunded') return;
        throw error;
      }
    },
    // Stripe Connect (decision 037): an Express account per seller, onboarded on Stripe's pages;
    // the platform charges the buyer and later transfers the seller's share to the account.
    payouts: {
      async createAccount({ userId, email, idempotencyKey }) {
        const account = await stripe.accounts.create(
          {
            type: 'express',
            email,
            metadata: { userId },
            capabilities: { transfers: { requested: true } },
          },
          { idempotencyKey },
        );
        return account.id;
      },
      async onboardingLink({ accountId, returnUrl, refreshUrl }) {
        const link = await stripe.accountLinks.create({
          account: accountId,
          type: 'account_onboarding',
          return_url: returnUrl,
          refresh_url: refreshUrl,
        });
        return link.url;
      },
      async accountReady(accountId) {
        if (!/^acct_[A-Za-z0-9]+$/.test(accountId)) return null;
        try {
          const account = await stripe.accounts.retrieve(accountId);
          return account.payouts_enabled === true;
        } catch (error) {
          if ((error as { statusCode?: number }).statusCode === 404) return null;
          throw error;
        }
      },
      async transfer({
        accountId,
        amountCents,
        currency,
        bookingId,
        paymentIntentId,
        idempotencyKey,
      }) {
        const group = `booking_${bookingId}`;
        // Stripe forgets idempotency keys after 24 hours: a booking's transfer made by an
        // earlier try is found by its group, and none is made twice.
        const made = await stripe.transfers.list({ transfer_group: group, limit: 1 }, LOOK_UP);
        if (made.data[0]) return { transferId: made.data[0].id };
        // Paid from the buyer's charge, so the transfer waits for its funds rather than being
        // refused for the platform's available balance (Stripe would keep that refusal a day).
        const intent = await stripe.paymentIntents.retrieve(paymentIntentId, {}, LOOK_UP);
        const charge =
          typeof intent.latest_charge === 'string'
            ? intent.latest_charge
            : intent.latest_charge?.id;
        if (!charge) throw new Error(`payment ${paymentIntentId} has no charge to pay out of`);
        const transfer = await stripe.transfers.create(
          {
            amount: amountCents,
            currency: currency.toLowerCase(),
            destination: accountId,
            transfer_group: group,
            source_transaction: charge,
            metadata: { bookingId },
          },
          { idempotencyKey },
        );
        return { transferId: transfer.id };
      },
    },
    parseWebhook(rawBody, signature) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature ?? '', options.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError((error as Error).message);
      }
      const object = event.data.object as { object?: string };
      return {
        id: event.id,
        type: event.type,
        intent:
          object.object === 'payment_intent' ? toIntent(object as Stripe.PaymentIntent) : null,
      };
    },
  };
}

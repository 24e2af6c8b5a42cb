/** What the payment service needs from a card processor; Stripe and the sandbox both provide it. */
export interface PaymentGateway {
  readonly provider: 'sandbox' | 'stripe';
  /** For the browser: Stripe's publishable key (none for the sandbox). */
  readonly publishableKey: string | null;
  createIntent(input: {
    amountCents: number;
    currency: string;
    bookingId: string;
    idempotencyKey: string;
  }): Promise<GatewayIntent>;
  /** The intent as the processor knows it, or null when it has no such intent. */
  retrieveIntent(id: string): Promise<GatewayIntent | null>;
  cancelIntent(id: string): Promise<void>;
  refund(intentId: string): Promise<void>;
  /** Checks a webhook's signature on the raw body and answers the event, or throws. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): GatewayEvent;
}

export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'succeeded'
  | 'canceled';

export interface GatewayIntent {
  id: string;
  clientSecret: string;
  status: IntentStatus;
  amountCents: number;
  currency: string;
  bookingId: string | null;
}

export interface GatewayEvent {
  id: string;
  type: string;
  intent: GatewayIntent | null;
}

export class WebhookSignatureError extends Error {}

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
  /**
   * Payouts to sellers (decision 037). With Stripe, Connect: an Express account per seller,
   * onboarded on Stripe's pages, and a transfer per hand-over; with the sandbox, accounts that
   * are ready at once and transfers kept in its own table (the built-in payout ledger).
   */
  readonly payouts: PayoutGateway;
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

/** Connected accounts and transfers to them. Every call is safe to repeat. */
export interface PayoutGateway {
  /**
   * Creates the seller's connected account (`idempotencyKey` makes a retry answer the same
   * one) and answers its id.
   */
  createAccount(input: { userId: string; email: string; idempotencyKey: string }): Promise<string>;
  /** A link to the provider's onboarding for the account, back to `returnUrl` when done. */
  onboardingLink(input: {
    accountId: string;
    returnUrl: string;
    refreshUrl: string;
  }): Promise<string>;
  /** Whether the account can receive payouts yet; null when the provider has no such account. */
  accountReady(accountId: string): Promise<boolean | null>;
  /**
   * Sends `amountCents` to the account. The same `idempotencyKey` again (a retry after a crash)
   * answers the transfer the first call made and moves nothing more. `paymentIntentId` is the
   * booking's charge (`booking.transactionId`): Stripe pays the transfer from that charge's
   * funds, available or not yet; the sandbox needs none.
   */
  transfer(input: {
    accountId: string;
    amountCents: number;
    currency: string;
    bookingId: string;
    paymentIntentId: string;
    idempotencyKey: string;
  }): Promise<{ transferId: string }>;
}

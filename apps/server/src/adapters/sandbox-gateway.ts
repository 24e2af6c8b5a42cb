import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../db/client.ts';
import type { BackgroundWork } from '../lib/background-work.ts';
import { sandboxEvent, sandboxIntent, sandboxTransfer } from '../db/schema.ts';
import type {
  GatewayEvent,
  GatewayIntent,
  IntentStatus,
  PaymentGateway,
} from './payment-gateway.ts';
import { signPayload, verifySignature } from './webhook-signature.ts';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const randomId = (length: number) =>
  Array.from(randomBytes(length), (byte) => ALPHABET[byte % ALPHABET.length]).join('');

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export interface CardError {
  type: 'card_error' | 'invalid_request_error';
  code: string;
  decline_code?: string;
  message: string;
}

/** Stripe's test cards and what they do. Other valid numbers are declined: no real cards here. */
const TEST_CARDS: Record<string, CardError | 'succeeds'> = {
  '4242424242424242': 'succeeds',
  '4000056655665556': 'succeeds',
  '5555555555554444': 'succeeds',
  '2223003122003222': 'succeeds',
  '378282246310005': 'succeeds',
  '4000000000000002': {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  },
  '4000000000009995': {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000000069': {
    type: 'card_error',
    code: 'expired_card',
    message: 'Your card has expired.',
  },
  '4000000000000127': {
    type: 'card_error',
    code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
};

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Checks a card the way Stripe does and answers the error it would give, or null. */
export function checkCard(card: CardInput, now = new Date()): CardError | 'succeeds' {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) {
    return {
      type: 'card_error',
      code: 'incorrect_number',
      message: 'Your card number is incorrect.',
    };
  }
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12) {
    return {
      type: 'card_error',
      code: 'invalid_expiry_month',
      message: "Your card's expiration month is invalid.",
    };
  }
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (year < now.getUTCFullYear()) {
    return {
      type: 'card_error',
      code: 'invalid_expiry_year_past',
      message: "Your card's expiration year is in the past.",
    };
  }
  if (year === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1) {
    return {
      type: 'card_error',
      code: 'invalid_expiry_month_past',
      message: "Your card's expiration date is in the past.",
    };
  }
  const amex = number.startsWith('34') || number.startsWith('37');
  if (!new RegExp(`^\\d{${amex ? 4 : 3}}$`).test(card.cvc)) {
    return {
      type: 'card_error',
      code: 'invalid_cvc',
      message: "Your card's security code is invalid.",
    };
  }
  return (
    TEST_CARDS[number] ?? {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'test_mode_live_card',
      message:
        'Your card was declined. This sandbox takes test cards only, such as 4242 4242 4242 4242.',
    }
  );
}

type IntentRow = typeof sandboxIntent.$inferSelect;

const unexpectedState = (status: string): CardError => ({
  type: 'invalid_request_error',
  code: 'payment_intent_unexpected_state',
  message: `This PaymentIntent's status is ${status}, so it cannot be confirmed.`,
});

function toIntent(row: IntentRow): GatewayIntent {
  return {
    id: row.id,
    clientSecret: row.clientSecret,
    status: row.status as IntentStatus,
    amountCents: row.amountCents,
    currency: row.currency,
    bookingId: row.metadata.bookingId ?? null,
  };
}

/** The intent as Stripe's API writes it, for event payloads and the confirm answer. */
export function stripeIntentJson(row: IntentRow) {
  return {
    id: row.id,
    object: 'payment_intent',
    amount: row.amountCents,
    currency: row.currency.toLowerCase(),
    status: row.status,
    client_secret: row.clientSecret,
    metadata: row.metadata,
    last_payment_error: row.lastError ?? null,
  };
}

export interface SandboxGateway extends PaymentGateway {
  /** The stand-in for Stripe.js's confirmCardPayment. */
  confirm(
    clientSecret: string,
    card: CardInput,
  ): Promise<{ intent: ReturnType<typeof stripeIntentJson> } | { error: CardError }>;
  /**
   * Where events go (set by the app: a signed POST to our own webhook path); answers whether the
   * webhook took it. An event not taken is sent again later.
   */
  onEvent: ((payload: string, signature: string) => Promise<boolean>) | null;
  /** Sends the events that are due again (a failed or lost delivery); any process may call it. */
  redeliver(): Promise<number>;
}

export interface SandboxOptions {
  webhookSecret: string;
  /** Where a confirmation's event delivery runs after the answer, so closing waits for it. */
  background: BackgroundWork;
  /** Fault injection for tests: the process dies right after a charge succeeds, before any news of it. */
  crashAfterCharge?: boolean;
}

/** How long after its first try an event stops being retried (Stripe: three days). */
const GIVE_UP_AFTER = sql`interval '3 days'`;
/** The first retry comes 5 s after the first try, then 30 s, 3 min, 18 min, ..., at most 6 h apart. */
const FIRST_RETRY_SECONDS = 5;

/**
 * A card processor that behaves like Stripe's test mode, kept in our own database so it works
 * offline and across several server processes.
 */
export function createSandboxGateway(
  db: Db,
  { webhookSecret, background, crashAfterCharge = false }: SandboxOptions,
): SandboxGateway {
  type QueuedEvent = { id: string; payload: string };

  /** Records an event in the same transaction as the change it reports, so it cannot be lost. */
  async function queue(tx: Tx, type: string, row: IntentRow): Promise<QueuedEvent> {
    const id = `evt_${randomId(24)}`;
    const payload = JSON.stringify({
      id,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      data: { object: stripeIntentJson(row) },
    });
    // The first try is made at once; should it fail, or the process die, the event is due again.
    await tx.insert(sandboxEvent).values({
      id,
      type,
      payload,
      attempts: 1,
      nextAttemptAt: sql`now() + make_interval(secs => ${FIRST_RETRY_SECONDS})`,
    });
    return { id, payload };
  }

  /** Delivers after the confirm answer, as Stripe does; one not started is redelivered later. */
  const deliverLater = (event: QueuedEvent) =>
    void background.run('sandbox event delivery', () => deliver(event));

  async function deliver(event: QueuedEvent): Promise<boolean> {
    if (!gateway.onEvent) return false;
    const taken = await gateway
      .onEvent(event.payload, signPayload(event.payload, webhookSecret))
      .catch(() => false);
    if (taken) {
      await db
        .update(sandboxEvent)
        .set({ deliveredAt: new Date() })
        .where(eq(sandboxEvent.id, event.id));
    }
    return taken;
  }

  /** Changes an intent and queues the event that reports it, atomically; then tries to send it. */
  async function change(
    where: ReturnType<typeof and>,
    values: Partial<typeof sandboxIntent.$inferInsert>,
    eventType: string,
  ): Promise<{ row: IntentRow; event: QueuedEvent } | undefined> {
    return db.transaction(async (tx) => {
      const [row] = await tx.update(sandboxIntent).set(values).where(where).returning();
      if (!row) return undefined;
      return { row, event: await queue(tx, eventType, row) };
    });
  }

  const gateway: SandboxGateway = {
    provider: 'sandbox',
    publishableKey: null,
    onEvent: null,

    // Sandbox accounts need no onboarding: ready at once, named by the request's key. Transfers
    // are rows of sandbox_transfer, the built-in payout ledger (decision 037).
    payouts: {
      async createAccount({ idempotencyKey }) {
        return `acct_sandbox_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 16)}`;
      },
      async onboardingLink({ returnUrl }) {
        return returnUrl;
      },
      async accountReady(accountId) {
        return accountId.startsWith('acct_sandbox_') ? true : null;
      },
      async transfer({ accountId, amountCents, currency, bookingId, idempotencyKey }) {
        const [made] = await db
          .insert(sandboxTransfer)
          .values({
            id: `tr_${randomId(24)}`,
            accountId,
            amountCents,
            currency,
            bookingId,
            idempotencyKey,
          })
          .onConflictDoNothing({ target: sandboxTransfer.idempotencyKey })
          .returning({ id: sandboxTransfer.id });
        if (made) return { transferId: made.id };
        // The same key again: the transfer the first call made, and nothing moves.
        const [existing] = await db
          .select({ id: sandboxTransfer.id })
          .from(sandboxTransfer)
          .where(eq(sandboxTransfer.idempotencyKey, idempotencyKey));
        return { transferId: existing!.id };
      },
    },

    async redeliver() {
      // Claiming pushes the next attempt forward, so two processes never send the same event
      // at once; one that dies mid-send leaves it due again at that time.
      const due = await queryRows<{ id: string; payload: string }>(
        db,
        sql`
        update ${sandboxEvent}
        set attempts = attempts + 1,
            next_attempt_at = now() + make_interval(secs => least(${FIRST_RETRY_SECONDS} * power(6, attempts), 21600))
        where id in (
          select id from ${sandboxEvent}
          where delivered_at is null and next_attempt_at <= now() and created_at > now() - ${GIVE_UP_AFTER}
          order by next_attempt_at
          limit 50
          for update skip locked
        )
        returning id, payload`,
      );
      let delivered = 0;
      for (const event of due) if (await deliver(event)) delivered += 1;
      return delivered;
    },

    async createIntent({ amountCents, currency, bookingId, idempotencyKey }) {
      const id = `pi_${randomId(24)}`;
      const [row] = await db
        .insert(sandboxIntent)
        .values({
          id,
          clientSecret: `${id}_secret_${randomId(24)}`,
          amountCents,
          currency,
          status: 'requires_payment_method',
          metadata: { bookingId },
          idempotencyKey,
        })
        .onConflictDoNothing({ target: sandboxIntent.idempotencyKey })
        .returning();
      if (row) return toIntent(row);
      // The same idempotency key again: Stripe answers the intent it made the first time.
      const [existing] = await db
        .select()
        .from(sandboxIntent)
        .where(eq(sandboxIntent.idempotencyKey, idempotencyKey));
      return toIntent(existing!);
    },

    async retrieveIntent(id) {
      const [row] = await db.select().from(sandboxIntent).where(eq(sandboxIntent.id, id));
      return row ? toIntent(row) : null;
    },

    async cancelIntent(id) {
      const changed = await change(
        and(
          eq(sandboxIntent.id, id),
          sql`${sandboxIntent.status} not in ('succeeded', 'canceled')`,
        ),
        { status: 'canceled' },
        'payment_intent.canceled',
      );
      if (changed) await deliver(changed.event);
    },

    async refund(id) {
      // Refunding twice is refunding once, as with Stripe's idempotency key.
      const changed = await change(
        and(
          eq(sandboxIntent.id, id),
          eq(sandboxIntent.status, 'succeeded'),
          eq(sandboxIntent.refunded, false),
        ),
        { refunded: true },
        'charge.refunded',
      );
      if (changed) await deliver(changed.event);
    },

    parseWebhook(rawBody, signature): GatewayEvent {
      verifySignature(rawBody, signature, webhookSecret);
      const event = JSON.parse(rawBody.toString('utf8')) as {
        id: string;
        type: string;
        data: { object: ReturnType<typeof stripeIntentJson> };
      };
      const object = event.data.object;
      return {
        id: event.id,
        type: event.type,
        intent: {
          id: object.id,
          clientSecret: object.client_secret,
          status: object.status as IntentStatus,
          amountCents: object.amount,
          currency: object.currency.toUpperCase(),
          bookingId: object.metadata.bookingId ?? null,
        },
      };
    },

    async confirm(clientSecret, card) {
      const [row] = await db
        .select()
        .from(sandboxIntent)
        .where(eq(sandboxIntent.clientSecret, clientSecret));
      if (!row) {
        return {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: 'No such payment_intent. Check the client secret.',
          },
        };
      }
      if (row.status === 'succeeded' || row.status === 'canceled') {
        return { error: unexpectedState(row.status) };
      }
      const outcome = checkCard(card);
      // Only an intent still waiting for a card changes: two confirmations never charge twice.
      const waiting = and(
        eq(sandboxIntent.id, row.id),
        sql`${sandboxIntent.status} not in ('succeeded', 'canceled')`,
      );
      if (outcome === 'succeeds') {
        const done = await change(
          waiting,
          { status: 'succeeded', lastError: null },
          'payment_intent.succeeded',
        );
        if (!done) return { error: unexpectedState('succeeded or canceled') };
        if (crashAfterCharge) process.kill(process.pid, 'SIGKILL');
        deliverLater(done.event);
        return { intent: stripeIntentJson(done.row) };
      }
      const failed = await change(
        waiting,
        {
          status: 'requires_payment_method',
          lastError: {
            code: outcome.code,
            message: outcome.message,
            ...(outcome.decline_code && { decline_code: outcome.decline_code }),
          },
        },
        'payment_intent.payment_failed',
      );
      if (failed) deliverLater(failed.event);
      return { error: outcome };
    },
  };
  return gateway;
}

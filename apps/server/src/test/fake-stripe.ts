import http from 'node:http';
import { expect } from 'vitest';
import { register, type Server, type TestClient } from './client.ts';
import { newCar, validBooking } from './fixtures.ts';

export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  /** The charge of a succeeded intent (`ch_...`), given once it succeeded; null before. */
  latest_charge: string | null;
}

export interface FakeAccount {
  id: string;
  object: 'account';
  type: string;
  email: string | null;
  metadata: Record<string, string>;
  payouts_enabled: boolean;
}

export interface FakeTransfer {
  id: string;
  object: 'transfer';
  amount: number;
  currency: string;
  destination: string;
  transfer_group: string | null;
  source_transaction: string | null;
  metadata: Record<string, string>;
  /** The Idempotency-Key it was made with (not a field of Stripe's). */
  idempotencyKey: string | undefined;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: URLSearchParams;
  idempotencyKey?: string;
  auth?: string;
}

const notFound = (what: string) => ({
  error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` },
});

/** A refusal a test makes the stand-in answer: Stripe's error body with this status. */
export interface FakeRefusal {
  status: number;
  code?: string;
  type?: string;
  message?: string;
  /** A transfer is made at Stripe all the same; only its answer is the error. */
  afterMaking?: boolean;
}

/** The Stripe settings of a test server talking to the stand-in. */
export const FAKE_WEBHOOK_SECRET = 'whsec_test_secret_for_the_fake';
export function stripeTestEnv(stripeApi: { url: string }): Record<string, string> {
  return {
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
    STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
    STRIPE_API_URL: stripeApi.url,
  };
}

/** The `metadata[...]` fields of a form body, as Stripe reads them. */
function metadataOf(body: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of body) {
    const match = /^metadata\[(.+)\]$/.exec(name);
    if (match) metadata[match[1]!] = value;
  }
  return metadata;
}

/**
 * A local stand-in for Stripe's API: answers the calls the adapter makes (payment intents,
 * refunds, Connect accounts, account links, transfers) and remembers every request. Account
 * creation and transfers honour the Idempotency-Key as Stripe does: the same key answers what
 * the first request made. A test can hold transfers (`stallTransfers`) to kill a server mid-call.
 */
export async function startFakeStripe() {
  const intents = new Map<string, FakeIntent>();
  const accounts = new Map<string, FakeAccount>();
  /** Every transfer made, in order; one per Idempotency-Key. */
  const transfers: FakeTransfer[] = [];
  const requests: FakeRequest[] = [];
  /** Intents refunded: a second refund without the first one's key is refused as Stripe does. */
  const refunded = new Set<string>();
  /** Refusals a test asked for, by `METHOD /path`, until it lifts them. */
  const refusals = new Map<string, FakeRefusal>();
  /** What a key answered the first time: Stripe replays it for the same key. */
  const answered = new Map<string, { status: number; value: unknown }>();
  let stall: {
    arrived: (request: FakeRequest) => void;
    beforeMaking: boolean;
    keys: string[] | undefined;
  } | null = null;
  const stalled: Array<{ res: http.ServerResponse; request: FakeRequest }> = [];
  const holds = (request: FakeRequest) =>
    stall !== null && (!stall.keys || stall.keys.includes(request.idempotencyKey ?? ''));

  function handle(request: FakeRequest): { status: number; value: unknown } | 'stall' {
    const { method, path, body } = request;
    if (method === 'POST' && path === '/v1/payment_intents') {
      const id = `pi_fake${intents.size + 1}`;
      const intent: FakeIntent = {
        id,
        object: 'payment_intent',
        amount: Number(body.get('amount')),
        currency: body.get('currency')!,
        status: 'requires_payment_method',
        client_secret: `${id}_secret_abc`,
        metadata: { bookingId: body.get('metadata[bookingId]')! },
        latest_charge: null,
      };
      intents.set(id, intent);
      return { status: 200, value: intent };
    }
    const intentPath = /^\/v1\/payment_intents\/([^/]+)(\/cancel)?$/.exec(path);
    if (intentPath) {
      const intent = intents.get(intentPath[1]!);
      if (!intent) return { status: 404, value: notFound('payment_intent') };
      if (intentPath[2]) intent.status = 'canceled';
      // A succeeded intent has its charge (a test marks it succeeded as Stripe.js would).
      if (intent.status === 'succeeded') intent.latest_charge ??= `ch_${intent.id.slice(3)}`;
      return { status: 200, value: intent };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intentId = body.get('payment_intent') ?? '';
      if (refunded.has(intentId)) {
        return {
          status: 400,
          value: {
            error: {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: `Charge ch_${intentId.slice(3)} has already been refunded.`,
            },
          },
        };
      }
      refunded.add(intentId);
      return { status: 200, value: { id: 're_fake', object: 'refund', status: 'succeeded' } };
    }
    if (method === 'POST' && path === '/v1/accounts') {
      const account: FakeAccount = {
        id: `acct_fake${accounts.size + 1}`,
        object: 'account',
        type: body.get('type') ?? 'express',
        email: body.get('email'),
        metadata: metadataOf(body),
        payouts_enabled: false,
      };
      accounts.set(account.id, account);
      return { status: 200, value: account };
    }
    const accountPath = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (method === 'GET' && accountPath) {
      const account = accounts.get(accountPath[1]!);
      return account
        ? { status: 200, value: account }
        : { status: 404, value: notFound('account') };
    }
    if (method === 'POST' && path === '/v1/account_links') {
      const accountId = body.get('account') ?? '';
      if (!accounts.has(accountId)) return { status: 404, value: notFound('account') };
      return {
        status: 200,
        value: {
          object: 'account_link',
          url: `https://connect.stripe.test/setup/e/${accountId}`,
          return_url: body.get('return_url'),
          refresh_url: body.get('refresh_url'),
          created: Math.floor(Date.now() / 1000),
          expires_at: Math.floor(Date.now() / 1000) + 300,
        },
      };
    }
    if (method === 'GET' && path === '/v1/transfers') {
      const group = request.query.get('transfer_group');
      const limit = Number(request.query.get('limit') ?? 10);
      const found = transfers.filter((t) => !group || t.transfer_group === group).reverse();
      return {
        status: 200,
        value: {
          object: 'list',
          url: '/v1/transfers',
          has_more: found.length > limit,
          data: found.slice(0, limit),
        },
      };
    }
    if (method === 'POST' && path === '/v1/transfers') {
      // Held before Stripe did anything: as if the request was lost on the way.
      if (holds(request) && stall?.beforeMaking) return 'stall';
      const destination = body.get('destination') ?? '';
      if (!accounts.has(destination)) return { status: 404, value: notFound('account') };
      // Without a charge to draw from, the platform's available balance pays, and the buyer's
      // money is not available yet: Stripe refuses (and keeps the refusal under the key).
      const source = body.get('source_transaction');
      const charged = [...intents.values()].some((intent) => intent.latest_charge === source);
      if (!source || !charged) {
        return {
          status: 400,
          value: {
            error: {
              type: 'invalid_request_error',
              code: 'balance_insufficient',
              message: 'You have insufficient available funds in your Stripe account.',
            },
          },
        };
      }
      const transfer: FakeTransfer = {
        id: `tr_fake${transfers.length + 1}`,
        object: 'transfer',
        amount: Number(body.get('amount')),
        currency: body.get('currency')!,
        destination,
        transfer_group: body.get('transfer_group'),
        source_transaction: source,
        metadata: metadataOf(body),
        idempotencyKey: request.idempotencyKey,
      };
      transfers.push(transfer);
      // Made, as Stripe would have made it; the answer is what may never reach the caller.
      return holds(request) ? 'stall' : { status: 200, value: transfer };
    }
    return {
      status: 404,
      value: {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` },
      },
    };
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const [requestPath, query] = req.url!.split('?');
      const request: FakeRequest = {
        method: req.method!,
        path: requestPath!,
        query: new URLSearchParams(query ?? ''),
        body: new URLSearchParams(raw),
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        auth: req.headers.authorization,
      };
      requests.push(request);
      res.setHeader('content-type', 'application/json');
      const key = request.idempotencyKey && `${request.method} ${request.idempotencyKey}`;
      const replay = key ? answered.get(key) : undefined;
      const refusal = replay ? undefined : refusals.get(`${request.method} ${request.path}`);
      if (refusal) {
        // Not kept under the key: a retry once the test lifts it is answered afresh. Stripe's
        // client is told not to retry, so each call is one request.
        if (refusal.afterMaking) handle(request);
        res.setHeader('stripe-should-retry', 'false');
        res.statusCode = refusal.status;
        res.end(
          JSON.stringify({
            error: {
              type: refusal.type ?? (refusal.status >= 500 ? 'api_error' : 'invalid_request_error'),
              code: refusal.code,
              message: refusal.message ?? 'Refused by the test.',
            },
          }),
        );
        return;
      }
      const answer = replay ?? handle(request);
      if (answer === 'stall') {
        stalled.push({ res, request });
        // A transfer made keeps its key's answer: a retry after the caller died gets it again.
        if (key && !stall?.beforeMaking)
          answered.set(key, { status: 200, value: transfers.at(-1) });
        stall?.arrived(request);
        return;
      }
      if (key && !replay) answered.set(key, answer);
      res.statusCode = answer.status;
      res.end(JSON.stringify(answer.value));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    accounts,
    transfers,
    requests,
    /** From now on `route` (`'POST /v1/transfers'`) is answered `refusal`, until `lift(route)`. */
    refuse(route: string, refusal: FakeRefusal) {
      refusals.set(route, refusal);
    },
    lift(route: string) {
      refusals.delete(route);
    },
    /** Stripe keeps an idempotency key's answer 24 hours: as if they had passed. */
    forgetKeys() {
      answered.clear();
    },
    /** What Stripe says once the seller finished (or lost) onboarding. */
    setPayoutsEnabled(accountId: string, enabled: boolean) {
      accounts.get(accountId)!.payouts_enabled = enabled;
    },
    /**
     * From now on a transfer request (of one of `keys`, when given) is never answered, until
     * `resumeTransfers`: the transfer is made, or with `beforeMaking` not even that. Answers
     * when the first such request arrived.
     */
    stallTransfers({
      beforeMaking = false,
      keys,
    }: { beforeMaking?: boolean; keys?: string[] } = {}): Promise<FakeRequest> {
      return new Promise((resolve) => {
        stall = { arrived: resolve, beforeMaking, keys };
      });
    },
    /** The Idempotency-Keys of the transfer requests held now. */
    stalledKeys: () => stalled.map(({ request }) => request.idempotencyKey),
    /**
     * Answers no more held requests (their callers see the connection drop) and stops holding
     * new ones; with `key`, only that key's, and the others stay held.
     */
    resumeTransfers(key?: string) {
      if (key === undefined) stall = null;
      for (const held of stalled.filter(
        (each) => key === undefined || each.request.idempotencyKey === key,
      )) {
        stalled.splice(stalled.indexOf(held), 1);
        held.res.destroy();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const { res } of stalled.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

/**
 * A new buyer books `carId` and starts paying with Stripe: the booking and the intent, which
 * Stripe.js has not confirmed yet.
 */
export async function startStripePayment(app: Server, carId: string) {
  const buyer = await register(app);
  const booked = await buyer.post('/api/category', validBooking(carId));
  expect(booked.status).toBe(200);
  const { insertedId: bookingId } = (await booked.json()) as { insertedId: string };
  const started = await buyer.post('/api/create-payment-intent', { bookingId });
  expect(started.status).toBe(200);
  const { clientSecret } = (await started.json()) as { clientSecret: string };
  return { buyer, bookingId, clientSecret, intentId: clientSecret.split('_secret_')[0]! };
}

/**
 * A car of `seller` (a new one's when none), booked by a new buyer and paid through the Stripe
 * stand-in as the payment page pays: Stripe.js confirms at Stripe, then the page records it.
 */
export async function payWithFakeStripe(
  app: Server,
  stripeApi: FakeStripe,
  options: { seller?: TestClient; repriceCents?: number } = {},
) {
  const car = await newCar(app, options);
  const started = await startStripePayment(app, car.id);
  // What Stripe.js's confirmation does at Stripe's end.
  stripeApi.intents.get(started.intentId)!.status = 'succeeded';
  const recorded = await started.buyer.post('/api/payments', {
    bookingId: started.bookingId,
    transactionId: started.intentId,
  });
  expect(recorded.status).toBe(200);
  return { car, ...started };
}

import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseProxyTrust, type ProxyTrust } from './lib/proxy-trust.ts';

/** `apps/server`, whether running from `src/` (tsx) or the bundle in `dist/`. */
export const serverRoot = fileURLToPath(new URL('..', import.meta.url));

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const EnvSchema = z
  .object({
    /**
     * `production` requires BETTER_AUTH_SECRET and PUBLIC_URL; `test` is what the test suites run
     * under.
     */
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /** The interface the server listens on. */
    HOST: z.string().min(1).default('0.0.0.0'),
    /** The HTTP port. */
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** How much the server logs, as JSON lines (`silent`: nothing). */
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /**
     * Serves `GET /metrics` (Prometheus's text format: requests, database, jobs, mail, payments,
     * the process) to `Authorization: Bearer <METRICS_TOKEN>` only. Unset: no such path (404).
     */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * Where the embedded database (`db/`), uploaded photos (`uploads/`), the mail outbox
     * (`outbox/`) and the generated auth secret are kept.
     */
    DATA_DIR: z.string().min(1).default('./data'),
    /**
     * `postgres://...` to use PostgreSQL 14+ instead of the embedded database (PGlite, in
     * `$DATA_DIR/db`). The role must be allowed to create the `cube` and `earthdistance`
     * extensions.
     */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    /** PostgreSQL connections per process. */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /**
     * The site's public address (unset: `http://localhost:$PORT`). Mail links use it, and only
     * pages from it may sign in or change anything with the session cookie (never the request's
     * Host header; API tools use a bearer token from `GET /api/jwt`). Set it whenever people reach
     * the site by another name, a LAN address included; `https://` turns on Secure cookies, HSTS
     * and upgrade-insecure-requests.
     */
    PUBLIC_URL: z.url().optional(),
    /**
     * The secret that signs sessions and tokens, at least 32 characters. Unset (never in
     * production): one is generated into `$DATA_DIR/auth-secret`.
     */
    BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /**
     * Seed the demo accounts and cars into an empty database (the categories are always seeded).
     */
    SEED_DEMO: booleanFromEnv.default(true),
    /**
     * Let people browse without an account: search, category and car pages (and their API calls)
     * answer anonymous visitors, car pages carry link previews and structured data, and the
     * sitemap lists every car on sale. Saving, asking, booking and paying still need an account.
     * `false` (the spec's rule): every page but the home page and the blog asks to sign in.
     */
    BROWSE_SIGNED_OUT: booleanFromEnv.default(false),
    /** `full`: 90 demo cars across many makes, for search; `small`: six per category (tests). */
    SEED_DEMO_CARS: z.enum(['small', 'full']).default('full'),
    /** The ISO currency of prices. */
    CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be a three-letter ISO currency code such as USD')
      .default('USD'),
    /**
     * Which reverse proxies to believe about the client's address (`X-Forwarded-For`), so the
     * addresses that limits and holds count are the real ones, and about the request id
     * (`X-Request-Id`). `false`: none. A hop count, `1` behind one proxy (nginx, a balancer): the
     * address that proxy saw, the right-most entry. Or the proxies' addresses and CIDR blocks,
     * comma-separated (`10.0.0.0/8,loopback`). `true` believes every hop, so the left-most entry,
     * which a client writes itself behind a proxy that appends: kept for old settings, with a
     * warning at start.
     */
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((value, ctx): ProxyTrust => {
        const trust = parseProxyTrust(value);
        if (trust !== null && typeof trust === 'object' && 'error' in trust) {
          ctx.addIssue({ code: 'custom', message: trust.error });
          return z.NEVER;
        }
        return trust;
      }),
    /**
     * `redis://...`: rate-limit counters (sign-in, mail, messages, searches) shared by all
     * processes, and the live events of conversations carried between them (pub/sub); `/api/ready`
     * answers 503 while it does not answer. Unset: both in the process's memory.
     */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
    /**
     * `smtp://user:pass@host:587` to send mail. Unset: mail goes to `$DATA_DIR/outbox` (its text
     * into the log too with `LOG_LEVEL=debug`).
     */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    /** The sender of the site's mail. */
    MAIL_FROM: z.string().min(3).default('CarMarket <no-reply@carmarket.local>'),
    /**
     * With GOOGLE_CLIENT_SECRET (both or neither), turns on "Continue with Google"; the redirect
     * URI is `<PUBLIC_URL>/api/auth/callback/google`.
     */
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    /** The secret that goes with GOOGLE_CLIENT_ID. */
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /**
     * Google's sign-in page; tests answer it locally.
     * @testOnly
     */
    GOOGLE_AUTHORIZATION_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
    /**
     * Google's token endpoint; tests answer it locally.
     * @testOnly
     */
    GOOGLE_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
    /**
     * Google's user-info endpoint; tests answer it locally.
     * @testOnly
     */
    GOOGLE_USERINFO_URL: z.url().default('https://openidconnect.googleapis.com/v1/userinfo'),
    /** The demo accounts' password, set when they are seeded. */
    DEMO_PASSWORD: z
      .string()
      .min(8, 'must be at least 8 characters')
      .max(128)
      .default('demo-drive-2026'),
    /** Lifetime of the bearer tokens from `GET /api/jwt`. */
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
    /**
     * Failed sign-ins per account from one address in each window (a browser that signed in to the
     * account before is held by the account's limits only, decision 012); also account mail per
     * address it goes to (decision 016).
     */
    SIGN_IN_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
    /**
     * Failed sign-ins from one address in each window; also account mail asked for from one address
     * (decision 016).
     */
    SIGN_IN_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
    /** Failed sign-ins per account from all addresses together in each window. */
    SIGN_IN_LIMIT_ACCOUNT_TOTAL: z.coerce.number().int().min(1).default(50),
    /** Accounts one address may make an hour (a family, an office, not a script); over it, 429. */
    SIGN_UP_LIMIT_PER_IP: z.coerce.number().int().min(1).default(10),
    /** Accounts one address may make a day; over it, 429 with Retry-After. */
    SIGN_UP_LIMIT_PER_IP_PER_DAY: z.coerce.number().int().min(1).default(30),
    /**
     * When on, booking and listing a car wait until the person has confirmed their address, and
     * the buttons say why. Off by default so the demo stays one-click.
     */
    REQUIRE_VERIFIED_EMAIL: booleanFromEnv.default(false),
    /**
     * Days a deleted account keeps its email address before it is free for a new account (signing
     * in and registering say until when; decision 012).
     */
    DELETED_ACCOUNT_HOLD_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
    /** `sandbox`: the built-in test card processor, no account needed; `stripe`: real cards. */
    PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe']).default('sandbox'),
    /**
     * How long a car is held for a buyer whose card is being confirmed (the hold starts when the
     * card form is sent, one car per buyer, never renewed).
     */
    PAYMENT_HOLD_MINUTES: z.coerce.number().int().min(1).max(120).default(15),
    /**
     * Different cars one buyer may hold in any 24 hours (a car let go waits a hold's length before
     * its buyer may hold it again; decision 024).
     */
    HOLD_LIMIT_PER_DAY: z.coerce.number().int().min(1).default(3),
    /** Live holds taken from one address at once (throw-away accounts share their address). */
    HOLD_LIMIT_PER_IP: z.coerce.number().int().min(1).default(3),
    /**
     * Days after payment when the buyer's money goes to the seller by itself, unless the buyer
     * confirmed hand-over sooner or opened a dispute first (decision 037).
     */
    HANDOVER_RELEASE_DAYS: z.coerce.number().int().min(1).max(90).default(7),
    /**
     * The platform's fee on a handed-over car, in percent of the price (up to two decimals); the
     * fee is rounded up to the minor unit, in the platform's favour (decision 037).
     */
    PLATFORM_FEE_PERCENT: z.coerce
      .number()
      .min(0)
      .max(50)
      .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9, {
        message: 'must have at most two decimals',
      })
      .default(5),
    /**
     * How often each process releases bookings whose hand-over days have passed and sends
     * payouts that are due (or were left sending by a crash).
     */
    PAYOUT_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    /**
     * How often open payments are settled with the processor, lapsed holds freed, failed refunds
     * retried and undelivered sandbox events sent again.
     */
    PAYMENT_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
    /**
     * How often each process deletes photos no car has shown for a day, frees the addresses of
     * accounts deleted more than DELETED_ACCOUNT_HOLD_DAYS ago and deletes car views older than 40
     * days.
     */
    CLEANUP_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
    /**
     * How often the price guide is fitted again and every car on sale rated again (decision 032);
     * also at start. With several processes, one of them refreshes per interval.
     */
    PRICE_GUIDE_REFRESH_MINUTES: z.coerce.number().min(0.01).max(10_080).default(60),
    /**
     * How long the sitemap index and the car sitemaps (with BROWSE_SIGNED_OUT) are served as
     * built before they are built again, on the first request after; with several processes, one
     * of them builds and the others serve the last build meanwhile (decision 045).
     */
    SITEMAP_REBUILD_MINUTES: z.coerce.number().min(0.01).max(10_080).default(60),
    /**
     * Sitemap requests (the index, the public pages', the cars') one address may make a minute;
     * past it, 429 (decision 045).
     */
    SITEMAP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /**
     * Count views of cars' pages for their sellers' stats (decision 027). `false` counts none:
     * the view-counting benchmark's baseline.
     */
    COUNT_VIEWS: booleanFromEnv.default(true),
    /**
     * How often each process writes the car views it counted to the database, in one upsert.
     * Closing the server writes the rest; a crash loses at most these seconds' views.
     */
    VIEW_FLUSH_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
    /**
     * How often each process looks for new cars to match against saved searches, and sends the
     * alerts, saved-car notices and "new message" mail owed (decisions 010, 015).
     */
    ALERT_INTERVAL_MS: z.coerce.number().int().min(100).max(86_400_000).default(15_000),
    /** Hours between two digests of one saved search with daily alerts. */
    ALERT_DIGEST_HOURS: z.coerce.number().min(0).default(24),
    /**
     * Alert mails (search alerts, digests, saved-car notices) one address gets a UTC day; the rest
     * goes in one mail the next day. Alert and "new message" mail go only to confirmed addresses.
     */
    ALERT_MAILS_PER_DAY: z.coerce.number().int().min(1).default(20),
    /** Messages one person may send a minute (issue 16); over it, 429 with Retry-After. */
    MESSAGE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /** Messages one person may send a day; over it, 429 with Retry-After. */
    MESSAGE_LIMIT_PER_DAY: z.coerce.number().int().min(1).default(200),
    /** New conversations one buyer may start a day (each can mail a seller). */
    CONVERSATION_LIMIT_PER_DAY: z.coerce.number().int().min(1).default(20),
    /** The same for an account whose address is not confirmed yet (a throw-away account's reach). */
    UNCONFIRMED_CONVERSATION_LIMIT_PER_DAY: z.coerce.number().int().min(1).default(3),
    /**
     * Cars one seller may put back on sale a day (each return is news mailed to the buyers who
     * saved the car); over it, 429 with Retry-After.
     */
    RELIST_LIMIT_PER_DAY: z.coerce.number().int().min(1).default(10),
    /** Minutes a message waits unread before its "new message" mail; then one an hour at most. */
    MESSAGE_MAIL_DELAY_MINUTES: z.coerce.number().min(0).max(10_080).default(5),
    /** Searches (and category pages) one person may have running at once; past it, 429. */
    SEARCH_CONCURRENCY_PER_PERSON: z.coerce.number().int().min(1).default(4),
    /**
     * Searches (and category pages) this process runs at once, everyone's together; the rest
     * wait their turn, fairly between people (503 after SEARCH_TIMEOUT_MS). Default: one fewer
     * than this machine's cores, so searches leave a core to car pages (decision 025).
     */
    SEARCH_CONCURRENCY_PER_PROCESS: z.coerce
      .number()
      .int()
      .min(1)
      .default(Math.max(1, os.availableParallelism() - 1)),
    /** Searches (and category pages) one person may make a minute; past it, 429. */
    SEARCH_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
    /**
     * Searches (and category pages) one address may make a minute without an account (with
     * BROWSE_SIGNED_OUT); past it, 429.
     */
    ANONYMOUS_SEARCH_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /**
     * Seller profiles one person (signed out, one address) may open a minute; past it, 429
     * (decision 046). The web app keeps a profile it read for 5 minutes.
     */
    SELLER_PROFILE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /** Milliseconds each statement of a search may run (PostgreSQL only); past it, 503. */
    SEARCH_TIMEOUT_MS: z.coerce.number().int().min(1).default(2000),
    /**
     * VINs one person may have decoded a minute (`GET /api/vin/:vin`; a decode takes the decoder
     * a few hundred milliseconds; VINs decoded lately answer from memory and do not count); past
     * it, 429 (decision 033).
     */
    VIN_DECODES_PER_MINUTE: z.coerce.number().int().min(1).default(20),
    /**
     * VIN decodes waiting for the decoder of a server process, which decodes one at a time (a few
     * hundred milliseconds each); past it, 503 busy, which counts against the minute (decision 049).
     */
    VIN_DECODES_WAITING: z.coerce.number().int().min(1).default(50),
    /**
     * VIN decodes one person may have waiting at once in a server process; past it, 429. The
     * waiting take turns between people, so one person, or a few, cannot fill the queue.
     */
    VIN_DECODES_WAITING_PER_PERSON: z.coerce.number().int().min(1).default(2),
    /**
     * Minutes the VIN decoder (a process of its own holding the vPIC data, about 230 MB) stays up
     * after its last decode; the first decode after that loads it again (about a second). At
     * most a week: a longer timer overflows Node's, which then fires at once.
     */
    VIN_DECODER_IDLE_MINUTES: z.coerce.number().min(0.01).max(10_080).default(5),
    /**
     * How often each process decodes the VINs of cars not yet decoded (a few at a time). At most
     * a week, as above.
     */
    VIN_DECODE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(604_800).default(60),
    /** Seconds between the comments that keep a live stream open through proxies. */
    LIVE_HEARTBEAT_SECONDS: z.coerce.number().min(0.05).max(300).default(25),
    /**
     * Live streams one process keeps open, everyone's together; past it a new one gets 503 (10 a
     * person, past which their oldest stream ends).
     */
    LIVE_MAX_STREAMS: z.coerce.number().int().min(1).default(5000),
    /** Live streams one process keeps open for one client address; past it a new one gets 503. */
    LIVE_MAX_STREAMS_PER_IP: z.coerce.number().int().min(1).default(50),
    /** Stripe's secret key (`sk_...` or `rk_...`); required with PAYMENT_PROVIDER=stripe. */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_/, 'must be a Stripe secret key (sk_...)')
      .optional(),
    /**
     * Stripe's publishable key (`pk_...`), sent to the browser; required with
     * PAYMENT_PROVIDER=stripe.
     */
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .regex(/^pk_/, 'must be a Stripe publishable key (pk_...)')
      .optional(),
    /**
     * Checks Stripe's events at `<PUBLIC_URL>/api/payments/webhook/stripe` (`whsec_...`); required
     * with PAYMENT_PROVIDER=stripe.
     */
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, 'must be a Stripe webhook secret (whsec_...)')
      .optional(),
    /**
     * Another Stripe API address; tests answer Stripe's calls locally.
     * @testOnly
     */
    STRIPE_API_URL: z.url().optional(),
    /**
     * Where photos are kept: `local` (under `$DATA_DIR/uploads`) or `s3` (any S3-compatible store).
     */
    STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
    /** The bucket; required with STORAGE_DRIVER=s3. */
    S3_BUCKET: z.string().min(1).optional(),
    /** The bucket's region. */
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** Another endpoint than AWS's, for MinIO and the like. */
    S3_ENDPOINT: z.url().optional(),
    /**
     * The bucket's access key. Unset: the AWS SDK's own chain (environment, profile, instance
     * role).
     */
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    /** The secret of S3_ACCESS_KEY_ID. */
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Path-style addresses (`endpoint/bucket/key`), which MinIO and some others need. */
    S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
    /** Put before every object's key, so the photos can share a bucket. */
    S3_PREFIX: z.string().default(''),
    /**
     * Photos one seller may upload in 24 hours (photos no car shows are deleted after a day): ten
     * cars of 20 photos, retries included.
     */
    UPLOAD_QUOTA_PER_DAY: z.coerce.number().int().min(1).default(200),
    /**
     * The window of the sign-in and account-mail limits. Wrong current passwords in My account
     * count as failed sign-ins.
     */
    SIGN_IN_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
    /**
     * Where the built web app is (unset: `apps/web/dist`); its server build is read from `dist-ssr`
     * beside it.
     */
    WEB_DIST_DIR: z.string().min(1).optional(),
    /** A client that has not sent its whole request (or sent nothing) by then is disconnected. */
    REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
    /**
     * Makes the process die at a chosen point, for the crash-recovery tests (NODE_ENV=test only).
     * @testOnly
     */
    FAULT_INJECTION: z.enum(['crash-after-charge']).optional(),
    /**
     * How long a SIGTERM or SIGINT waits for requests and background work to finish before the
     * process exits anyway.
     */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.GOOGLE_CLIENT_ID ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID'],
        message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together',
      });
    }
    if (env.STORAGE_DRIVER === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'is required when STORAGE_DRIVER=s3',
      });
    }
    if (env.PAYMENT_PROVIDER === 'stripe') {
      for (const name of [
        'STRIPE_SECRET_KEY',
        'STRIPE_PUBLISHABLE_KEY',
        'STRIPE_WEBHOOK_SECRET',
      ] as const) {
        if (!env[name])
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'is required when PAYMENT_PROVIDER=stripe',
          });
      }
    }
    if (env.FAULT_INJECTION && env.NODE_ENV !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['FAULT_INJECTION'],
        message: 'is for tests only (NODE_ENV=test)',
      });
    }
    if (env.NODE_ENV !== 'production') return;
    for (const name of ['BETTER_AUTH_SECRET', 'PUBLIC_URL'] as const) {
      if (!env[name]) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'is required when NODE_ENV=production',
        });
      }
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export interface Config extends Env {
  dataDir: string;
  webDistDir: string;
  migrationsDir: string;
  /** Whether the site is served over HTTPS (cookies get Secure, HSTS is sent). */
  secure: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the environment once; every other module takes a Config. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as most deploy tools write them.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    ...values,
    dataDir,
    webDistDir: path.resolve(values.WEB_DIST_DIR ?? path.join(serverRoot, '../web/dist')),
    migrationsDir: path.join(serverRoot, 'src/db/migrations'),
    secure: values.PUBLIC_URL?.startsWith('https://') ?? false,
  };
}

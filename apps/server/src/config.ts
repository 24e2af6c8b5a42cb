import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** `apps/server`, whether running from `src/` (tsx) or the bundle in `dist/`. */
export const serverRoot = fileURLToPath(new URL('..', import.meta.url));

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    PUBLIC_URL: z.url().optional(),
    BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    SEED_DEMO: booleanFromEnv.default(true),
    /** `full`: 90 demo cars across many makes, for search; `small`: six per category (tests). */
    SEED_DEMO_CARS: z.enum(['small', 'full']).default('full'),
    CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be a three-letter ISO currency code such as USD')
      .default('USD'),
    TRUST_PROXY: booleanFromEnv.default(false),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('CarMarket <no-reply@carmarket.local>'),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /** Google's OAuth endpoints; overridable so tests can answer them locally. */
    GOOGLE_AUTHORIZATION_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
    GOOGLE_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
    GOOGLE_USERINFO_URL: z.url().default('https://openidconnect.googleapis.com/v1/userinfo'),
    DEMO_PASSWORD: z
      .string()
      .min(8, 'must be at least 8 characters')
      .max(128)
      .default('demo-drive-2026'),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
    SIGN_IN_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
    SIGN_IN_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
    SIGN_IN_LIMIT_ACCOUNT_TOTAL: z.coerce.number().int().min(1).default(50),
    /** Accounts one IP may make an hour and a day (a family or an office, not a script); over them, 429. */
    SIGN_UP_LIMIT_PER_IP: z.coerce.number().int().min(1).default(10),
    SIGN_UP_LIMIT_PER_IP_PER_DAY: z.coerce.number().int().min(1).default(30),
    /** When on, booking and listing a car wait until the person has confirmed their address. */
    REQUIRE_VERIFIED_EMAIL: booleanFromEnv.default(false),
    /** Days a deleted account keeps its email address before it is free for a new account. */
    DELETED_ACCOUNT_HOLD_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
    PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe']).default('sandbox'),
    PAYMENT_HOLD_MINUTES: z.coerce.number().int().min(1).max(120).default(15),
    /** Different cars one buyer may hold in any 24 hours (a car let go waits a hold's length). */
    HOLD_LIMIT_PER_DAY: z.coerce.number().int().min(1).default(3),
    /** Live holds taken from one address at once (throw-away accounts share their address). */
    HOLD_LIMIT_PER_IP: z.coerce.number().int().min(1).default(3),
    PAYMENT_SWEEP_SECONDS: z.coerce.number().int().min(1).default(30),
    /** How often each process looks for new cars to match against saved searches, and mail owed. */
    ALERT_INTERVAL_MS: z.coerce.number().int().min(100).default(15_000),
    /** Hours between two digests of one saved search with daily alerts. */
    ALERT_DIGEST_HOURS: z.coerce.number().min(0).default(24),
    /** Alert mails (search alerts, digests, saved-car notices) one address gets a day; then one. */
    ALERT_MAILS_PER_DAY: z.coerce.number().int().min(1).default(20),
    /** Messages one person may send (issue 16): per minute and per day; over them, 429. */
    MESSAGE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    MESSAGE_LIMIT_PER_DAY: z.coerce.number().int().min(1).default(200),
    /** New conversations one buyer may start a day (each can mail a seller). */
    CONVERSATION_LIMIT_PER_DAY: z.coerce.number().int().min(1).default(20),
    /** The same for an account whose address is not confirmed yet (a throw-away account's reach). */
    UNCONFIRMED_CONVERSATION_LIMIT_PER_DAY: z.coerce.number().int().min(1).default(3),
    /** Minutes a message waits unread before its "new message" mail; then one an hour at most. */
    MESSAGE_MAIL_DELAY_MINUTES: z.coerce.number().min(0).default(5),
    /** Searches (and category pages) one person may have running at once; past it, 429. */
    SEARCH_CONCURRENCY_PER_PERSON: z.coerce.number().int().min(1).default(4),
    /** Searches (and category pages) one person may make a minute; past it, 429. */
    SEARCH_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
    /** Milliseconds each statement of a search may run (PostgreSQL only); past it, 503. */
    SEARCH_TIMEOUT_MS: z.coerce.number().int().min(1).default(2000),
    /** Seconds between the comments that keep a live stream open through proxies. */
    LIVE_HEARTBEAT_SECONDS: z.coerce.number().min(0.05).max(300).default(25),
    /** Live streams one process keeps open, everyone's together; past it a new one gets 503. */
    LIVE_MAX_STREAMS: z.coerce.number().int().min(1).default(5000),
    /** Live streams one process keeps open for one client address; past it a new one gets 503. */
    LIVE_MAX_STREAMS_PER_IP: z.coerce.number().int().min(1).default(50),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_/, 'must be a Stripe secret key (sk_...)')
      .optional(),
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .regex(/^pk_/, 'must be a Stripe publishable key (pk_...)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, 'must be a Stripe webhook secret (whsec_...)')
      .optional(),
    /** Another Stripe API address; tests answer Stripe's calls locally. */
    STRIPE_API_URL: z.url().optional(),
    STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ENDPOINT: z.url().optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
    S3_PREFIX: z.string().default(''),
    UPLOAD_QUOTA_PER_DAY: z.coerce.number().int().min(1).default(60),
    SIGN_IN_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
    WEB_DIST_DIR: z.string().min(1).optional(),
    /** A client that has not sent its whole request (or sent nothing) by then is disconnected. */
    REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
    /** Tests only: makes the process die at a chosen point (crash-recovery tests). */
    FAULT_INJECTION: z.enum(['crash-after-charge']).optional(),
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

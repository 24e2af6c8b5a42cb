import { createHash } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { seedDatabase } from './seed/seed.ts';
import { BackgroundWork } from './lib/background-work.ts';
import { DomainEvents } from './lib/events.ts';
import { createMetrics } from './lib/metrics.ts';
import { createMemoryCounterStore, createRedisCounterStore } from './lib/rate-limit.ts';
import { resolveAuthSecret } from './lib/secret.ts';
import { createResponseSerializer } from './lib/serializer.ts';
import { siteOrigins } from './lib/site-origins.ts';
import { createAccessTokens } from './modules/auth/access-token.ts';
import { createAuth, type Auth } from './modules/auth/auth.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createKnownBrowsers } from './modules/auth/known-browsers.ts';
import { scryptPasswords, type PasswordHashing } from './modules/auth/passwords.ts';
import { createMailSender, mailQueueState } from './modules/mail/mail-queue.ts';
import { userRoutes } from './modules/users/users.routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { createMailer, type Mailer } from './adapters/mail.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { inputPlugin } from './plugins/input.ts';
import { mediaPlugin } from './plugins/media.ts';
import { requestLogPlugin } from './plugins/request-log.ts';
import { csrfPlugin } from './plugins/csrf.ts';
import { securityPlugin } from './plugins/security.ts';
import { createS3Storage } from './adapters/s3-storage.ts';
import { createLocalStorage, type Storage } from './adapters/storage.ts';
import { webPlugin } from './plugins/web.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { exportRoutes } from './modules/exports/exports.routes.ts';
import { bookingRoutes } from './modules/bookings/bookings.routes.ts';
import { categoryRoutes } from './modules/categories/categories.routes.ts';
import { categoryAdminRoutes } from './modules/categories/category-admin.routes.ts';
import { browsingPlugin } from './modules/listings/browsing.ts';
import { listingRoutes } from './modules/listings/listings.routes.ts';
import { placeRoutes } from './modules/places/places.routes.ts';
import { createSearchBudget } from './modules/search/search-budget.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { searchListings } from './modules/search/search.service.ts';
import { sellerRoutes } from './modules/listings/seller.routes.ts';
import { uploadRoutes } from './modules/uploads/uploads.routes.ts';
import { paymentRoutes } from './modules/payments/payments.routes.ts';
import { handoverRoutes } from './modules/payouts/handover.routes.ts';
import type { PayoutDeps } from './modules/payouts/payout-deps.ts';
import { payoutRoutes } from './modules/payouts/payouts.routes.ts';
import { subscribePayouts } from './modules/payouts/payouts.subscribers.ts';
import { payoutSweepJob } from './jobs/payout-sweep.ts';
import type { PaymentDeps } from './modules/payments/payment-deps.ts';
import type { sweepPayments } from './modules/payments/sweeper.ts';
import type { AlertDeps, runAlerts } from './modules/saved/alerts.ts';
import { savedRoutes } from './modules/saved/saved.routes.ts';
import { subscribeSaved } from './modules/saved/saved.subscribers.ts';
import { subscribeMessages } from './modules/messages/messages.subscribers.ts';
import { subscribeListings } from './modules/listings/listings.subscribers.ts';
import { unsubscribeTokens } from './modules/saved/unsubscribe.ts';
import { createSandboxGateway, type SandboxGateway } from './adapters/sandbox-gateway.ts';
import { createStripeGateway } from './adapters/stripe-gateway.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { sellerProfileRoutes } from './modules/sellers/sellers.routes.ts';
import { createViewCounter } from './modules/stats/car-views.ts';
import { createMemoryBus, createRedisBus, LiveHub } from './modules/messages/live.ts';
import { messageRoutes } from './modules/messages/messages.routes.ts';
import type { MessagesDeps } from './modules/messages/message-writes.ts';
import { runMessageMail, type MessageMailDeps } from './modules/messages/message-mail.ts';
import { alertJob } from './jobs/alerts.ts';
import { carViewFlushJob, carViewPruneJob } from './jobs/car-views.ts';
import { deletedAccountsJob } from './jobs/deleted-accounts.ts';
import { measured, startJobs, stopJobs, type Job, type RunningJob } from './jobs/job.ts';
import { messageMailJob } from './jobs/message-mail.ts';
import { paymentSweepJob } from './jobs/payment-sweep.ts';
import { uploadSweepJob } from './jobs/upload-sweep.ts';
import { priceGuideJob } from './jobs/price-guide.ts';
import { priceGuideRoutes } from './modules/price-guide/price-guide.routes.ts';
import type { RefreshResult } from './modules/price-guide/price-guide.service.ts';
import { refreshPriceGuide } from './modules/price-guide/price-guide.service.ts';
import { subscribePriceGuide } from './modules/price-guide/price-guide.subscribers.ts';
import { vinDecodingJob } from './jobs/vin-decoding.ts';
import { createVinDecoder } from './modules/vin/vin-decoder.ts';
import { vinRoutes } from './modules/vin/vin.routes.ts';
import { subscribeVin } from './modules/vin/vin.subscribers.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { serverOptions } from './server-options.ts';
import { metricsRoutes } from './modules/system/metrics.routes.ts';
import { seoRoutes } from './modules/seo/seo.routes.ts';

export interface AppOptions {
  config: Config;
  /** Overrides where embedded PGlite keeps its data (tests use `memory://`). */
  pgliteDir?: string;
  /** A dump of an embedded database (`dumpDataDir`) to start from: tests' prepared database. */
  pgliteDump?: Blob;
  /** How passwords are hashed: better-auth's scrypt unless a test passes a cheaper one. */
  passwords?: PasswordHashing;
  logger?: FastifyServerOptions['logger'];
  /** Cars per car sitemap (50,000): tests prove the paging with fewer. */
  carsPerSitemap?: number;
  /**
   * Runs the jobs (true): on their timers, and the price guide's at start. The fuzz turns them
   * off: it compares the tables before and after each refused request, and a job's write between
   * the two is none of the request's. Each job's run stays callable (`runMessageMail`, ...).
   */
  jobs?: boolean;
  /** The clock the sitemaps are built by (`Date.now`): tests move it past the interval. */
  sitemapClock?: () => number;
}

export interface App {
  app: FastifyInstance;
  payments: {
    deps: PaymentDeps;
    sweep: () => ReturnType<typeof sweepPayments>;
    sandboxWebhookSecret: string;
  };
  /** Hand-over, disputes and payouts (decision 037). */
  payouts: {
    deps: PayoutDeps;
    /** One run of the payout sweep (it runs every PAYOUT_SWEEP_SECONDS by itself). */
    sweep: () => ReturnType<ReturnType<typeof payoutSweepJob>['run']>;
  };
  /** Deletes photos no car has shown for a day (runs hourly by itself). */
  sweepUploads: () => Promise<number>;
  /** Frees the addresses of accounts deleted longer ago than the hold (runs hourly by itself). */
  releaseDeletedEmails: () => Promise<number>;
  /** One run of the alert worker (it runs every ALERT_INTERVAL_MS by itself). */
  runAlerts: () => ReturnType<typeof runAlerts>;
  /** Writes the car views counted so far (it runs every VIEW_FLUSH_SECONDS by itself). */
  flushCarViews: () => Promise<number>;
  /** One run of the "new message" mail (it runs every ALERT_INTERVAL_MS by itself). */
  runMessageMail: () => Promise<number>;
  /**
   * Refreshes the price guide now, waiting for a refresh under way (it runs at start and every
   * PRICE_GUIDE_REFRESH_MINUTES by itself).
   */
  runPriceGuide: () => Promise<RefreshResult>;
  /** One run of the VIN decoding of cars (it runs every VIN_DECODE_INTERVAL_SECONDS by itself). */
  runVinDecoding: () => ReturnType<ReturnType<typeof vinDecodingJob>['run']>;
  /** This process's live streams of conversations. */
  live: LiveHub;
  database: Database;
  storage: Storage;
  mailer: Mailer;
  auth: Auth;
  outboxDir: string;
}

/** Builds the whole application, migrated and seeded, without listening. */
export async function buildApp({
  config,
  pgliteDir,
  pgliteDump,
  passwords = scryptPasswords,
  logger,
  carsPerSitemap,
  jobs: jobsRun = true,
  sitemapClock,
}: AppOptions): Promise<App> {
  // Each photo is processed once (an upload, the demo seed): libvips's cache of recent
  // operations, up to 50 MB, would only hold memory (decision 014).
  sharp.cache(false);
  // This app's metrics (decision 040). Requests and statements are timed only when something
  // may read them (METRICS_TOKEN); the counters of payments and jobs cost nothing either way.
  const metrics = createMetrics({ processMetrics: Boolean(config.METRICS_TOKEN) });
  const measuring = config.METRICS_TOKEN ? metrics : undefined;
  const database = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: pgliteDir ?? path.join(config.dataDir, 'db'),
    pgliteDump,
    poolSize: config.DATABASE_POOL_SIZE,
    migrationsDir: config.migrationsDir,
    onQuery: measuring && ((ms) => measuring.observeQuery(ms)),
  });
  const storage =
    config.STORAGE_DRIVER === 's3'
      ? await createS3Storage({
          bucket: config.S3_BUCKET!,
          region: config.S3_REGION,
          endpoint: config.S3_ENDPOINT,
          accessKeyId: config.S3_ACCESS_KEY_ID,
          secretAccessKey: config.S3_SECRET_ACCESS_KEY,
          forcePathStyle: config.S3_FORCE_PATH_STYLE,
          prefix: config.S3_PREFIX,
        })
      : createLocalStorage(path.join(config.dataDir, 'uploads'));

  const app = Fastify(serverOptions(config, logger)).withTypeProvider<ZodTypeProvider>();
  if (config.TRUST_PROXY === true) {
    app.log.warn(
      "TRUST_PROXY=true believes the left-most X-Forwarded-For entry, which a client writes itself behind a proxy that appends: set the hop count (1 behind one proxy) or the proxies' addresses",
    );
  }
  app.setValidatorCompiler(validatorCompiler);
  // Tests check every response against its schema; a running site only writes it (decision 014).
  app.setSerializerCompiler(createResponseSerializer({ validate: config.NODE_ENV === 'test' }));
  // Everything that runs besides requests goes through `background` (decision 022). Fastify runs
  // onClose hooks last registered first, so this one, registered first, runs last: the work under
  // way is awaited, then the pool ends, and no query ever meets a closed pool.
  const background = new BackgroundWork(app.log);
  app.addHook('onClose', async () => {
    await background.close();
    await database.close();
  });

  const outboxDir = path.join(config.dataDir, 'outbox');
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir,
    log: app.log,
  });
  const mailSender = createMailSender(database.db, mailer, app.log, background);
  const counters = config.REDIS_URL
    ? createRedisCounterStore(config.REDIS_URL, (error) =>
        app.log.error({ err: error }, 'Redis does not answer: sign-in answers 503 until it does'),
      )
    : createMemoryCounterStore();
  app.addHook('onClose', () => counters.close());
  const searchBudget = createSearchBudget({
    database,
    counters,
    concurrent: config.SEARCH_CONCURRENCY_PER_PERSON,
    perProcess: config.SEARCH_CONCURRENCY_PER_PROCESS,
    perMinute: config.SEARCH_LIMIT_PER_MINUTE,
    anonymousPerMinute: config.ANONYMOUS_SEARCH_LIMIT_PER_MINUTE,
    timeoutMs: config.SEARCH_TIMEOUT_MS,
    metrics,
  });
  const secret = await resolveAuthSecret(config);
  const { siteOrigin, trustedOrigins } = siteOrigins(config, () => {
    const address = app.server.address();
    return address && typeof address === 'object' ? address.port : config.PORT;
  });
  // Live conversations (decision 015): across processes through Redis, else within this one.
  const live = new LiveHub({
    db: database.db,
    bus: config.REDIS_URL ? createRedisBus(config.REDIS_URL, app.log) : createMemoryBus(),
    log: app.log,
    heartbeatMs: config.LIVE_HEARTBEAT_SECONDS * 1000,
    maxStreams: config.LIVE_MAX_STREAMS,
    maxStreamsPerIp: config.LIVE_MAX_STREAMS_PER_IP,
  });
  if (!config.REDIS_URL && config.DATABASE_URL) {
    app.log.info(
      'REDIS_URL is not set: live messages reach the streams of this process only; set it when running several',
    );
  }
  // Before the server stops listening: open streams would otherwise hold close() open forever.
  app.addHook('preClose', async () => live.endAll());
  metrics.watch({
    ...(database.poolStats && { pool: database.poolStats }),
    mailQueue: () => mailQueueState(database.db),
    liveStreams: () => live.size,
  });
  app.addHook('onClose', () => live.close());
  // What the core publishes and who hears it (decision 026). Subscribers run in the order they
  // subscribe here, which is the lock order where several share a transaction (an account's
  // deletion: saved rows first, as the alert worker takes them, then conversations, then cars).
  const events = new DomainEvents();
  subscribeSaved(events);
  subscribeMessages(events, live);
  subscribeListings(events, mailer);
  subscribePriceGuide(events);
  subscribePayouts(events, {
    feePercent: config.PLATFORM_FEE_PERCENT,
    releaseDays: config.HANDOVER_RELEASE_DAYS,
  });
  // VIN decoding (decision 033): a child process, started by the first decode, ended when idle.
  const vinDecoder = createVinDecoder({
    log: app.log,
    idleMs: config.VIN_DECODER_IDLE_MINUTES * 60_000,
    maxWaiting: config.VIN_DECODES_WAITING,
    maxWaitingEach: config.VIN_DECODES_WAITING_PER_PERSON,
  });
  app.addHook('onClose', () => vinDecoder.close());
  subscribeVin(events, vinDecoder);

  const auth = createAuth({
    log: app.log,
    config,
    db: database.db,
    mailer,
    secret,
    trustedOrigins,
    siteOrigin,
    live,
    events,
    background,
    passwords,
  });
  const tokens = createAccessTokens(secret, config.ACCESS_TOKEN_TTL_SECONDS);
  const sandboxWebhookSecret = `whsec_${createHash('sha256').update(`sandbox-webhook:${secret}`).digest('hex')}`;
  const gateway =
    config.PAYMENT_PROVIDER === 'stripe'
      ? await createStripeGateway({
          secretKey: config.STRIPE_SECRET_KEY!,
          publishableKey: config.STRIPE_PUBLISHABLE_KEY!,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
          apiUrl: config.STRIPE_API_URL,
        })
      : createSandboxGateway(database.db, {
          webhookSecret: sandboxWebhookSecret,
          background,
          crashAfterCharge: config.FAULT_INJECTION === 'crash-after-charge',
        });
  const paymentDeps: PaymentDeps = {
    db: database.db,
    events,
    gateway,
    mailer,
    holdMinutes: config.PAYMENT_HOLD_MINUTES,
    holdLimits: { perDay: config.HOLD_LIMIT_PER_DAY, perIp: config.HOLD_LIMIT_PER_IP },
    siteOrigin,
    log: app.log,
    metrics,
  };
  if (gateway.provider === 'sandbox') {
    // The sandbox delivers its events through the same signed webhook path Stripe would use.
    (gateway as SandboxGateway).onEvent = async (payload, signature) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/payments/webhook/sandbox',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
      if (response.statusCode >= 300) {
        app.log.warn({ status: response.statusCode }, 'sandbox webhook was refused');
      }
      return response.statusCode < 300;
    };
  }
  const unsubscribe = unsubscribeTokens(secret);
  const alertDeps: AlertDeps = {
    db: database.db,
    mailer,
    log: app.log,
    siteOrigin,
    unsubscribe,
    digestHours: config.ALERT_DIGEST_HOURS,
    mailsPerDay: config.ALERT_MAILS_PER_DAY,
  };

  const messagesDeps: MessagesDeps = {
    db: database.db,
    live,
    counters,
    limits: {
      perMinute: config.MESSAGE_LIMIT_PER_MINUTE,
      perDay: config.MESSAGE_LIMIT_PER_DAY,
      newConversationsPerDay: config.CONVERSATION_LIMIT_PER_DAY,
      newConversationsPerDayUnconfirmed: config.UNCONFIRMED_CONVERSATION_LIMIT_PER_DAY,
    },
  };
  const messageMailDeps: MessageMailDeps = {
    db: database.db,
    mailer,
    log: app.log,
    siteOrigin,
    delayMinutes: config.MESSAGE_MAIL_DELAY_MINUTES,
  };

  // Every job (jobs/, decision 026), started one way; closing stops each, waiting for its run in
  // progress, before the database closes (the onClose hook above runs after this one). Each is
  // measured, whether its timer or a one-shot call runs it.
  const job = <J extends Job>(work: J) => measured(work, metrics.jobs);
  const paymentSweep = job(paymentSweepJob(paymentDeps, config.PAYMENT_SWEEP_SECONDS * 1000));
  const payoutDeps: PayoutDeps = {
    db: database.db,
    gateway,
    mail: mailSender,
    log: app.log,
    siteOrigin,
    currency: config.CURRENCY,
    feePercent: config.PLATFORM_FEE_PERCENT,
    releaseDays: config.HANDOVER_RELEASE_DAYS,
    counters,
    metrics,
  };
  const payoutSweep = job(payoutSweepJob(payoutDeps, config.PAYOUT_SWEEP_SECONDS * 1000));
  const cleanupMs = config.CLEANUP_INTERVAL_MINUTES * 60_000;
  const uploadSweep = job(uploadSweepJob(database.db, storage, app.log, cleanupMs));
  const deletedAccounts = job(
    deletedAccountsJob(database.db, config.DELETED_ACCOUNT_HOLD_DAYS, cleanupMs),
  );
  const alerts = job(alertJob(alertDeps, config.ALERT_INTERVAL_MS));
  const messageMail = job(messageMailJob(messageMailDeps, config.ALERT_INTERVAL_MS));
  // Views of cars' pages (decision 027): counted in memory, written by the flush job.
  const viewCounter = createViewCounter({ db: database.db, counters, log: app.log });
  const viewFlush = job(carViewFlushJob(viewCounter, config.VIEW_FLUSH_SECONDS * 1000));
  const viewPrune = job(carViewPruneJob(database.db, cleanupMs));
  const priceGuide = job(priceGuideJob(database.db, config.PRICE_GUIDE_REFRESH_MINUTES * 60_000));
  const vinDecoding = job(
    vinDecodingJob(database.db, vinDecoder, config.VIN_DECODE_INTERVAL_SECONDS * 1000),
  );
  // Started once the database is migrated (below): a job's first tick must not meet a table
  // that a fresh database does not have yet.
  let jobs: RunningJob[] = [];
  // Registered before stopJobs' hook, so it runs after it (hooks run last registered first) and
  // before the counters and the database close: the views counted at close are written.
  app.addHook('onClose', () =>
    viewCounter.flush().then(
      () => undefined,
      () => undefined, // logged by the flush
    ),
  );
  app.addHook('onClose', () => stopJobs(jobs));

  try {
    await database.withStartupLock(async () => {
      await database.migrate();
      const seeded = await seedDatabase(database.db, storage, {
        demo: config.SEED_DEMO,
        demoCars: config.SEED_DEMO_CARS,
        currency: config.CURRENCY,
        demoPassword: config.DEMO_PASSWORD,
        passwords,
      });
      if (seeded.seeded) app.log.info({ listings: seeded.listings }, 'seeded an empty database');
    });
    jobs = startJobs(
      jobsRun
        ? [
            paymentSweep,
            payoutSweep,
            uploadSweep,
            deletedAccounts,
            alerts,
            messageMail,
            viewFlush,
            viewPrune,
            vinDecoding,
            priceGuide,
          ]
        : [],
      background,
    );

    await app.register(requestLogPlugin, { metrics: measuring });
    await app.register(errorsPlugin);
    await app.register(inputPlugin);
    await app.register(securityPlugin, { config });
    await app.register(csrfPlugin, { trustedOrigins });
    await app.register(docsPlugin, { secure: config.secure });
    await app.register(authPlugin, { auth, tokens, db: database.db });
    await app.register(browsingPlugin, { browseSignedOut: config.BROWSE_SIGNED_OUT });
    await app.register(mediaPlugin, { storage });
    await app.register(
      async (api) => {
        await api.register(systemRoutes, {
          checks: {
            database: () => database.ping(),
            ...(config.REDIS_URL ? { redis: () => counters.ping() } : {}),
          },
        });
        await api.register(authRoutes, {
          auth,
          db: database.db,
          counters,
          knownBrowsers: createKnownBrowsers(secret, config.secure),
          config,
          mailer,
          storage,
          siteOrigin,
          live,
          background,
        });
        await api.register(userRoutes, { db: database.db, tokens });
        await api.register(categoryRoutes, {
          db: database.db,
          budget: searchBudget,
          search: searchListings,
        });
        await api.register(categoryAdminRoutes, { db: database.db, storage, events });
        await api.register(listingRoutes, {
          db: database.db,
          ...(config.COUNT_VIEWS ? { viewed: viewCounter.viewed } : {}),
        });
        await api.register(searchRoutes, { budget: searchBudget });
        await api.register(savedRoutes, { db: database.db, unsubscribe });
        await api.register(placeRoutes);
        await api.register(priceGuideRoutes, { budget: searchBudget, currency: config.CURRENCY });
        await api.register(vinRoutes, {
          deps: { decoder: vinDecoder, counters, perMinute: config.VIN_DECODES_PER_MINUTE },
        });
        await api.register(bookingRoutes, {
          db: database.db,
          mail: mailSender,
          events,
          requireVerifiedEmail: config.REQUIRE_VERIFIED_EMAIL,
        });
        await api.register(sellerRoutes, {
          db: database.db,
          events,
          storage,
          mailer,
          config,
          counters,
        });
        await api.register(adminRoutes, {
          db: database.db,
          events,
          mailer,
          holdDays: config.DELETED_ACCOUNT_HOLD_DAYS,
        });
        await api.register(messageRoutes, { deps: messagesDeps });
        await api.register(statsRoutes, { db: database.db, currency: config.CURRENCY });
        await api.register(sellerProfileRoutes, {
          db: database.db,
          counters,
          perMinute: config.SELLER_PROFILE_LIMIT_PER_MINUTE,
        });
        await api.register(paymentRoutes, {
          deps: paymentDeps,
          holdMinutes: config.PAYMENT_HOLD_MINUTES,
          secureCookies: config.secure,
        });
        await api.register(handoverRoutes, { deps: payoutDeps });
        await api.register(payoutRoutes, { deps: payoutDeps });
        await api.register(uploadRoutes, {
          db: database.db,
          storage,
          quota: { perDay: config.UPLOAD_QUOTA_PER_DAY },
        });
        await api.register(exportRoutes, { db: database.db, storage, counters });
      },
      { prefix: '/api' },
    );
    if (config.METRICS_TOKEN) {
      await app.register(metricsRoutes, {
        registry: metrics.registry,
        token: config.METRICS_TOKEN,
      });
    }
    await app.register(seoRoutes, {
      db: database.db,
      siteOrigin,
      browseSignedOut: config.BROWSE_SIGNED_OUT,
      webDistDir: config.webDistDir,
      carsPerSitemap,
      rebuildMs: config.SITEMAP_REBUILD_MINUTES * 60_000,
      perMinute: config.SITEMAP_LIMIT_PER_MINUTE,
      counters,
      background,
      now: sitemapClock,
    });
    await app.register(webPlugin, {
      distDir: config.webDistDir,
      siteOrigin,
      browseSignedOut: config.BROWSE_SIGNED_OUT,
    });
    await app.ready();
    // The price guide is fitted at start too (its job's timer first fires an interval later);
    // in the background, so a large market does not hold up the first request.
    if (jobsRun) void background.run(priceGuide.name, () => priceGuide.run());
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return {
    app,
    database,
    storage,
    mailer,
    auth,
    outboxDir,
    payments: { deps: paymentDeps, sweep: () => paymentSweep.run(), sandboxWebhookSecret },
    payouts: { deps: payoutDeps, sweep: () => payoutSweep.run() },
    sweepUploads: () => uploadSweep.run(),
    releaseDeletedEmails: () => deletedAccounts.run(),
    runAlerts: () => alerts.run(),
    runMessageMail: () => runMessageMail(messageMailDeps),
    runPriceGuide: () => refreshPriceGuide(database.db, { force: true }),
    flushCarViews: () => viewFlush.run(),
    runVinDecoding: () => vinDecoding.run(),
    live,
  };
}

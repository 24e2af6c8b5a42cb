import path from 'node:path';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { seedDatabase } from './db/seed/seed.ts';
import { createMemoryCounterStore, createRedisCounterStore } from './lib/rate-limit.ts';
import { resolveAuthSecret } from './lib/secret.ts';
import { createAccessTokens } from './modules/auth/access-token.ts';
import { createAuth, type Auth } from './modules/auth/auth.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { userRoutes } from './modules/users/users.routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { createMailer, type Mailer } from './plugins/mail.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { mediaPlugin } from './plugins/media.ts';
import { securityPlugin } from './plugins/security.ts';
import { createLocalStorage, type Storage } from './plugins/storage.ts';
import { webPlugin } from './plugins/web.ts';
import { bookingRoutes } from './modules/bookings/bookings.routes.ts';
import { categoryRoutes } from './modules/categories/categories.routes.ts';
import { listingRoutes } from './modules/listings/listings.routes.ts';
import { sellerRoutes } from './modules/listings/seller.routes.ts';
import { uploadRoutes } from './modules/uploads/uploads.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';

export interface AppOptions {
  config: Config;
  /** Overrides where embedded PGlite keeps its data (tests use `memory://`). */
  pgliteDir?: string;
  logger?: FastifyServerOptions['logger'];
}

export interface App {
  app: FastifyInstance;
  database: Database;
  storage: Storage;
  mailer: Mailer;
  auth: Auth;
  outboxDir: string;
}

/** Builds the whole application, migrated and seeded, without listening. */
export async function buildApp({ config, pgliteDir, logger }: AppOptions): Promise<App> {
  const database = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: pgliteDir ?? path.join(config.dataDir, 'db'),
    poolSize: config.DATABASE_POOL_SIZE,
    migrationsDir: config.migrationsDir,
  });
  const storage = createLocalStorage(path.join(config.dataDir, 'uploads'));

  const app = Fastify({
    logger: logger ?? { level: config.LOG_LEVEL },
    trustProxy: config.TRUST_PROXY,
    forceCloseConnections: 'idle',
    bodyLimit: 1_048_576,
    // Listings and uploads are addressed by UUID; long garbage URLs get a plain 404.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    // Errors Fastify raises before routing (bad URL, over-long parameter) get our shape too.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void (reply as FastifyReply).status(status).send({
        error: { code: 'bad-request', message: 'The address is malformed or too long.' },
      });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onClose', () => database.close());

  const outboxDir = path.join(config.dataDir, 'outbox');
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir,
    log: app.log,
  });
  const counters = config.REDIS_URL
    ? createRedisCounterStore(config.REDIS_URL)
    : createMemoryCounterStore();
  app.addHook('onClose', () => counters.close());
  const secret = await resolveAuthSecret(config);
  const auth = createAuth({ log: app.log, config, db: database.db, mailer, secret });
  const tokens = createAccessTokens(secret, config.ACCESS_TOKEN_TTL_SECONDS);

  try {
    await database.withStartupLock(async () => {
      await database.migrate();
      const seeded = await seedDatabase(database.db, storage, {
        demo: config.SEED_DEMO,
        currency: config.CURRENCY,
        demoPassword: config.DEMO_PASSWORD,
      });
      if (seeded.seeded) app.log.info({ listings: seeded.listings }, 'seeded an empty database');
    });

    await app.register(errorsPlugin);
    await app.register(securityPlugin, { config });
    await app.register(docsPlugin);
    await app.register(authPlugin, { auth, tokens, db: database.db });
    await app.register(mediaPlugin, { storage });
    await app.register(
      async (api) => {
        await api.register(systemRoutes, { database });
        await api.register(authRoutes, { auth, counters, config });
        await api.register(userRoutes, { db: database.db, tokens });
        await api.register(categoryRoutes, { db: database.db });
        await api.register(listingRoutes, { db: database.db });
        await api.register(bookingRoutes, { db: database.db, mailer });
        await api.register(sellerRoutes, { db: database.db, storage, mailer, config });
        await api.register(uploadRoutes, {
          db: database.db,
          storage,
          quota: { perDay: config.UPLOAD_QUOTA_PER_DAY },
        });
      },
      { prefix: '/api' },
    );
    await app.register(webPlugin, { distDir: config.webDistDir });
    await app.ready();
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return { app, database, storage, mailer, auth, outboxDir };
}

import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { seedDatabase } from './db/seed/seed.ts';
import { authPlugin } from './plugins/auth.ts';
import { docsPlugin } from './plugins/docs.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { mediaPlugin } from './plugins/media.ts';
import { securityPlugin } from './plugins/security.ts';
import { createLocalStorage, type Storage } from './plugins/storage.ts';
import { webPlugin } from './plugins/web.ts';
import { categoryRoutes } from './modules/categories/categories.routes.ts';
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
      void reply.status(status).send({
        error: { code: 'bad-request', message: 'The address is malformed or too long.' },
      });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onClose', () => database.close());

  try {
    await database.withStartupLock(async () => {
      await database.migrate();
      const seeded = await seedDatabase(database.db, storage, {
        demo: config.SEED_DEMO,
        currency: config.CURRENCY,
      });
      if (seeded.seeded) app.log.info({ listings: seeded.listings }, 'seeded an empty database');
    });

    await app.register(errorsPlugin);
    await app.register(securityPlugin, { config });
    await app.register(docsPlugin);
    await app.register(authPlugin);
    await app.register(mediaPlugin, { storage });
    await app.register(
      async (api) => {
        await api.register(systemRoutes, { database });
        await api.register(categoryRoutes, { db: database.db });
      },
      { prefix: '/api' },
    );
    await app.register(webPlugin, { distDir: config.webDistDir });
    await app.ready();
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return { app, database, storage };
}

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App, type AppOptions } from '../app.ts';
import { loadConfig } from '../config.ts';
import {
  createTestDatabase,
  fromPreparedDatabase,
  SEED_SETTINGS,
  TEST_APP_ENV,
  testPasswords,
} from './prepared-database.ts';

export { createTestDatabase, dropTestDatabases } from './prepared-database.ts';

/**
 * `npm test` prints the median time a test app took to start, per round (scripts/test.mjs sets
 * TEST_APP_STARTS_DIR): one file per database, one line per app.
 */
async function recordStart(ms: number) {
  const dir = process.env.TEST_APP_STARTS_DIR;
  if (!dir) return;
  await fs.mkdir(dir, { recursive: true });
  const round = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  await fs.appendFile(path.join(dir, round), `${Math.round(ms)}\n`);
}

export interface TestApp extends App {
  baseUrl: string;
  dataDir: string;
  /** The PostgreSQL database this app uses, when not on PGlite. */
  databaseUrl: string | undefined;
  /** fetch against the running server, with a path such as `/api/category`. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Reuse a data directory / database from an earlier test app (restart scenarios). */
  reuse?: { dataDir: string; databaseUrl?: string };
  /** Hash passwords as a running server does (buildApp's default), not the tests' cheap way. */
  realPasswords?: boolean;
  /** Migrate and seed an empty database itself, as a fresh install does. */
  freshInstall?: boolean;
  /** Cars per car sitemap, fewer than the protocol's 50,000 to prove the paging. */
  carsPerSitemap?: number;
  /** The clock the sitemaps are built by, which a test moves past their interval. */
  sitemapClock?: () => number;
  /** Where the server logs (a test that reads its log); none by default. */
  logger?: AppOptions['logger'];
  /** Runs the jobs (true); false leaves them to the test's calls (`runMessageMail`, ...). */
  jobs?: boolean;
}

/**
 * Starts the real server on a random port with its own fresh database: PostgreSQL when
 * TEST_DATABASE_URL is set (a new database per app), else embedded PGlite in memory. The
 * database is a copy of the run's prepared one (migrated and seeded once, decision 023) unless
 * the app reuses another's, seeds differently, is a fresh install or hashes passwords the real
 * way.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const started = performance.now();
  const dataDir =
    options.reuse?.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-test-')));
  const seedsAsPrepared =
    !options.reuse &&
    !options.realPasswords &&
    !options.freshInstall &&
    !SEED_SETTINGS.some((name) => options.env?.[name] !== undefined) &&
    options.env?.STORAGE_DRIVER === undefined;
  const prepared = seedsAsPrepared ? await fromPreparedDatabase(dataDir) : undefined;
  const databaseUrl =
    options.reuse?.databaseUrl ?? prepared?.databaseUrl ?? (await createTestDatabase());
  const config = loadConfig({
    ...TEST_APP_ENV,
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'web-dist'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  const built = await buildApp({
    config,
    // A restart must find the same embedded database, so only fresh apps live in memory.
    pgliteDir: options.reuse ? path.join(dataDir, 'db') : 'memory://',
    pgliteDump: prepared?.pgliteDump,
    ...(!options.realPasswords && { passwords: testPasswords }),
    logger: options.logger ?? false,
    carsPerSitemap: options.carsPerSitemap,
    jobs: options.jobs,
    sitemapClock: options.sitemapClock,
  });
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const address = built.app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  await recordStart(performance.now() - started);
  return {
    ...built,
    baseUrl,
    dataDir,
    databaseUrl,
    request: (pathname, init) => fetch(`${baseUrl}${pathname}`, init),
    close: () => built.app.close(),
  };
}

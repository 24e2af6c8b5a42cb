import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';

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
}

/**
 * Starts the real server on a random port with its own fresh database: PostgreSQL when
 * TEST_DATABASE_URL is set (a new database per app), else embedded PGlite in memory.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir =
    options.reuse?.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-test-')));
  const databaseUrl = options.reuse?.databaseUrl ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    // Six demo cars per category: what the tests count on. Search tests add their own cars.
    SEED_DEMO_CARS: 'small',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'web-dist'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  const built = await buildApp({
    config,
    // A restart must find the same embedded database, so only fresh apps live in memory.
    pgliteDir: options.reuse ? path.join(dataDir, 'db') : 'memory://',
    logger: false,
  });
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const address = built.app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    ...built,
    baseUrl,
    dataDir,
    databaseUrl,
    request: (pathname, init) => fetch(`${baseUrl}${pathname}`, init),
    close: () => built.app.close(),
  };
}

const createdDatabases: string[] = [];

export async function createTestDatabase(): Promise<string | undefined> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return undefined;
  const name = `carmarket_test_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  createdDatabases.push(name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the databases this test file created (vitest calls it after all tests of a file). */
export async function dropTestDatabases(): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl || createdDatabases.length === 0) return;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const name of createdDatabases.splice(0)) {
      await client.query(`drop database if exists "${name}" with (force)`);
    }
  } finally {
    await client.end();
  }
}

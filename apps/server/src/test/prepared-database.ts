import { randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { seedDatabase } from '../seed/seed.ts';
import { scryptPasswords, type PasswordHashing } from '../modules/auth/passwords.ts';
import { createLocalStorage } from '../adapters/storage.ts';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;
const CHEAP = 'test-scrypt';
const cheapKey = (password: string, salt: Buffer) =>
  scryptAsync(password.normalize('NFKC'), salt, 32, { N: 16, r: 1, p: 1 });

/**
 * Password hashing for test apps: scrypt at N=16 instead of better-auth's N=16384 (~130 ms a hash,
 * hundreds of sign-ups and sign-ins a run). A hash it did not make (the admin command's, an app
 * with the real hashing) is checked the real way. One test keeps the real hashing
 * (`realPasswords`) and proves sign-in works with it.
 */
export const testPasswords: PasswordHashing = {
  async hash(password) {
    const salt = randomBytes(16);
    return `${CHEAP}:${salt.toString('hex')}:${(await cheapKey(password, salt)).toString('hex')}`;
  },
  async verify({ hash, password }) {
    const [kind, salt, key] = hash.split(':');
    if (kind !== CHEAP || !salt || !key) return scryptPasswords.verify({ hash, password });
    return timingSafeEqual(
      await cheapKey(password, Buffer.from(salt, 'hex')),
      Buffer.from(key, 'hex'),
    );
  },
};

/**
 * A database migrated and seeded once per run (decision 023), as `startTestApp` seeds a fresh
 * one: on PostgreSQL a template database, on PGlite a dump of its data directory; the demo
 * photos it stored, in `uploads`.
 */
export interface PreparedDatabase {
  uploadsDir: string;
  /** PostgreSQL: the database to copy with CREATE DATABASE ... TEMPLATE. */
  template?: string;
  /** PGlite: the file `dumpDataDir` wrote. */
  dumpFile?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    preparedDatabase: PreparedDatabase | null;
  }
}

/** The settings under which a test app seeds what the prepared database holds. */
export const SEED_SETTINGS = ['SEED_DEMO', 'SEED_DEMO_CARS', 'CURRENCY', 'DEMO_PASSWORD'] as const;

/**
 * Limits per address lifted for every test server, in-process or a child: every test signs people
 * up and holds cars from 127.0.0.1, and with Redis the count is shared by every test file running
 * at once and kept for the window (an hour, a day). sign-up-limits.test.ts and hold-limits.test.ts
 * set the limits they test.
 */
export const TEST_ADDRESS_LIMITS = {
  SIGN_UP_LIMIT_PER_IP: '100000',
  SIGN_UP_LIMIT_PER_IP_PER_DAY: '100000',
  HOLD_LIMIT_PER_IP: '100000',
} as const;

/** The configuration test apps start from (startTestApp adds its data directory and options). */
export const TEST_APP_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  // Six demo cars per category: what the tests count on. Search tests add their own cars.
  SEED_DEMO_CARS: 'small',
  ...TEST_ADDRESS_LIMITS,
} as const;

export function databaseUrlNamed(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Migrates and seeds the run's prepared database (vitest's global setup); answers its undoing. */
export async function prepareDatabase(): Promise<{
  prepared: PreparedDatabase;
  dispose: () => Promise<void>;
}> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-prepared-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = adminUrl ? `carmarket_template_${randomUUID().replaceAll('-', '')}` : undefined;
  if (template) await withAdminClient((client) => client.query(`create database "${template}"`));
  const config = loadConfig({ ...TEST_APP_ENV, DATA_DIR: dir });
  const database = await openDatabase({
    url: adminUrl && template ? databaseUrlNamed(adminUrl, template) : undefined,
    pgliteDir: 'memory://',
    poolSize: 2,
    migrationsDir: config.migrationsDir,
  });
  const prepared: PreparedDatabase = { uploadsDir: path.join(dir, 'uploads'), template };
  try {
    await database.migrate();
    await seedDatabase(database.db, createLocalStorage(prepared.uploadsDir), {
      demo: config.SEED_DEMO,
      demoCars: config.SEED_DEMO_CARS,
      currency: config.CURRENCY,
      demoPassword: config.DEMO_PASSWORD,
      passwords: testPasswords,
    });
    if (database.dump) {
      prepared.dumpFile = path.join(dir, 'pglite.tar');
      const dump = await database.dump();
      await fs.writeFile(prepared.dumpFile, Buffer.from(await dump.arrayBuffer()));
    }
  } finally {
    await database.close();
  }
  return {
    prepared,
    async dispose() {
      if (template) {
        await withAdminClient((client) =>
          client.query(`drop database if exists "${template}" with (force)`),
        );
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

let dump: Promise<Blob> | undefined;

/**
 * Where a fresh test app's data starts: the prepared database copied (its photos into
 * `dataDir`), or nothing when this run has none (a test file run on its own outside the server
 * project).
 */
export async function fromPreparedDatabase(
  dataDir: string,
): Promise<{ databaseUrl?: string; pgliteDump?: Blob } | undefined> {
  const prepared = inject('preparedDatabase');
  if (!prepared) return undefined;
  await fs.cp(prepared.uploadsDir, path.join(dataDir, 'uploads'), { recursive: true });
  if (prepared.dumpFile) {
    dump ??= fs.readFile(prepared.dumpFile).then((bytes) => new Blob([bytes]));
    return { pgliteDump: await dump };
  }
  if (prepared.template) return { databaseUrl: await createTestDatabase(prepared.template) };
  return undefined;
}

const createdDatabases: string[] = [];

/** A new PostgreSQL database for this test file (empty, or a copy of `template`). */
export async function createTestDatabase(template?: string): Promise<string | undefined> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return undefined;
  const name = `carmarket_test_${randomUUID().replaceAll('-', '')}`;
  await withAdminClient((client) =>
    client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`),
  );
  createdDatabases.push(name);
  return databaseUrlNamed(adminUrl, name);
}

/** Drops the databases this test file created (vitest calls it after all tests of a file). */
export async function dropTestDatabases(): Promise<void> {
  if (!process.env.TEST_DATABASE_URL || createdDatabases.length === 0) return;
  await withAdminClient(async (client) => {
    for (const name of createdDatabases.splice(0)) {
      await client.query(`drop database if exists "${name}" with (force)`);
    }
  });
}

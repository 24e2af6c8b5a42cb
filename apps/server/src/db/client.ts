import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The part of Drizzle both drivers share; services depend on this only. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A database handle or a transaction on it. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs committed migrations; call it inside `withStartupLock`. */
  migrate(): Promise<void>;
  /**
   * Runs `work` while holding a cluster-wide lock (PostgreSQL advisory lock), so start-up work
   * such as seeding happens once when several processes start together.
   */
  withStartupLock<T>(work: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; without it, embedded PGlite. */
  url?: string | undefined;
  /** PGlite data directory; `memory://` keeps everything in memory (tests). */
  pgliteDir: string;
  poolSize: number;
  migrationsDir: string;
}

const STARTUP_LOCK_KEY = 7_304_190_211;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options);
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  if (!options.pgliteDir.startsWith('memory://')) {
    await fs.mkdir(path.dirname(options.pgliteDir), { recursive: true });
  }
  const pgliteOptions = {
    // Distance search (decision 009) needs earthdistance, which needs cube; PostgreSQL ships both.
    extensions: { cube, earthdistance },
    // PostgreSQL's default 128 MB of shared buffers sits in the WASM memory for good, on top of
    // the operating system's cache of the same files; 32 MB holds the hot pages (decision 014).
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
  };
  const fresh =
    !options.pgliteDir.startsWith('memory://') &&
    !(await fs.stat(path.join(options.pgliteDir, 'PG_VERSION')).catch(() => null));
  if (fresh) {
    // Creating the database (initdb) leaves ~500 MB of WASM memory that PGlite keeps while the
    // instance lives: create it, close it, and open it again without that.
    await (await PGlite.create(options.pgliteDir, pgliteOptions)).close();
  }
  const client = await PGlite.create(options.pgliteDir, pgliteOptions);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // One process owns an embedded database, so there is nobody to race with.
    migrate: () =>
      migratePglite(drizzlePglite(client), { migrationsFolder: options.migrationsDir }),
    withStartupLock: (work) => work(),
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    // PostgreSQL's own plan caching (plan_cache_mode=auto): a named statement (db/prepared.ts)
    // keeps a generic plan once it costs no more than planning for each run's values (planning
    // My Products' joins and subqueries took as long as running it). Searches are sent
    // unnamed, so each is planned for its values (decision 018).
  });
  // A client that loses its server (a restart, pg_terminate_backend, a failover) emits 'error';
  // without a listener that kills the process. The pool listens while a client is idle; this one
  // covers it while a request holds it (its queries fail, and the pool drops it when released).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg(pool, { schema }) as unknown as Db;

  async function withStartupLock<T>(work: () => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => {});
      client.release();
    }
  }

  return {
    db,
    kind: 'postgres',
    migrate: () => migratePg(drizzlePg(pool), { migrationsFolder: options.migrationsDir }),
    withStartupLock,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}

/** Raw SQL that both drivers run; PGlite and node-postgres both answer `{ rows }`. */
export async function queryRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

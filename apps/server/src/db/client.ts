import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { lockDataDir } from './pglite-lock.ts';
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
  /**
   * Runs `work` in a transaction on one connection (it sends its statements one after another),
   * each statement under `limits`: cut off after `timeoutMs` (PostgreSQL's error 57014). PGlite
   * runs it as it is: its single WASM thread has no timer to fire statement_timeout, and no
   * parallel workers.
   */
  withStatementLimits<T>(limits: StatementLimits, work: (db: Db) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /** PostgreSQL only: the pool's connections and the callers waiting for one (GET /metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Embedded PGlite only: the whole data directory as a tar, for tests to start from. */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface StatementLimits {
  timeoutMs: number;
  /** Parallel workers a statement may use (max_parallel_workers_per_gather) besides its own. */
  parallelWorkers: number;
}

export interface DatabaseOptions {
  /** postgres:// URL; without it, embedded PGlite. */
  url?: string | undefined;
  /** PGlite data directory; `memory://` keeps everything in memory (tests). */
  pgliteDir: string;
  /** A dump (`dumpDataDir`) to start an in-memory PGlite from: tests' prepared database. */
  pgliteDump?: Blob | undefined;
  poolSize: number;
  migrationsDir: string;
  /** Told each statement's time in ms, as the driver saw it (the metrics, decision 040). */
  onQuery?: ((ms: number) => void) | undefined;
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
    // Drizzle's parsers, given once to the instance instead of with every query (below).
    parsers: DRIZZLE_PARSERS,
    ...(options.pgliteDump && { loadDataDir: options.pgliteDump }),
  };
  const onDisk = !options.pgliteDir.startsWith('memory://');
  // One process may open an embedded database (decision 041): a second would corrupt it.
  const unlock = onDisk ? await lockDataDir(options.pgliteDir) : async () => {};
  const fresh =
    onDisk && !(await fs.stat(path.join(options.pgliteDir, 'PG_VERSION')).catch(() => null));
  if (fresh && !options.pgliteDump) {
    // Creating the database (initdb) leaves ~500 MB of WASM memory that PGlite keeps while the
    // instance lives: create it, close it, and open it again without that.
    await (await PGlite.create(options.pgliteDir, pgliteOptions)).close();
  }
  const client = dropRepeatedParsers(
    await PGlite.create(options.pgliteDir, pgliteOptions),
    options.onQuery,
  );
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // One process owns an embedded database, so there is nobody to race with.
    migrate: () =>
      migratePglite(drizzlePglite(client), { migrationsFolder: options.migrationsDir }),
    withStartupLock: (work) => work(),
    withStatementLimits: (_limits, work) => work(db),
    ping: async () => {
      await client.query('select 1');
    },
    dump: () => client.dumpDataDir('none'),
    close: async () => {
      await client.close();
      await unlock();
    },
  };
}

/**
 * What Drizzle's PGlite driver asks for with every query (`parsers` in its query options): dates,
 * timestamps and intervals, and arrays of them and of numerics, left as the text PostgreSQL
 * sends, for Drizzle to map itself.
 */
const DRIZZLE_TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
];
const asSent = (value: string) => value;
const DRIZZLE_PARSERS = Object.fromEntries(DRIZZLE_TEXT_TYPES.map((oid) => [oid, asSent]));
const drizzleTypeKeys = new Set(DRIZZLE_TEXT_TYPES.map(String));
/** Drizzle keeps one options object per built query: each is checked once. */
const checked = new WeakMap<QueryOptions, QueryOptions>();

/**
 * A query's options without the parsers the instance already has. PGlite merges a query's own
 * parsers into a copy of its whole map of 318 types for each query: ~120 KB of garbage and
 * ~0.17 ms of CPU, every query Drizzle sends (decision 020). A query whose parsers are not
 * Drizzle's leave-as-text ones keeps them (an upgrade that changed them stays correct).
 */
function withoutDrizzleParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!parsers) return options;
  let stripped = checked.get(options);
  if (!stripped) {
    const onlyDrizzles = Object.entries(parsers).every(
      ([key, parse]) => drizzleTypeKeys.has(key) && parse('1 day', 0) === '1 day',
    );
    stripped = onlyDrizzles ? { ...options, parsers: undefined } : options;
    checked.set(options, stripped);
  }
  return stripped;
}
/**
 * The instance, and each transaction it opens, sending queries without Drizzle's parsers (and
 * timing each for `onQuery`).
 */
function dropRepeatedParsers(client: PGlite, onQuery?: (ms: number) => void): PGlite {
  const stripQuery = (handle: Pick<Transaction, 'query'>) => {
    const query = handle.query.bind(handle);
    handle.query = (
      onQuery
        ? (text: string, params?: unknown[], options?: QueryOptions) =>
            timed(query(text, params, withoutDrizzleParsers(options)), onQuery)
        : (text: string, params?: unknown[], options?: QueryOptions) =>
            query(text, params, withoutDrizzleParsers(options))
    ) as typeof handle.query;
  };
  stripQuery(client);
  const transaction = client.transaction.bind(client);
  client.transaction = (work) =>
    transaction((tx) => {
      stripQuery(tx);
      return work(tx);
    });
  return client;
}

/** `onQuery` is told how long the statement took once it settles; answers the same promise. */
function timed<T>(result: Promise<T>, onQuery: (ms: number) => void): Promise<T> {
  const started = performance.now();
  const done = () => onQuery(performance.now() - started);
  result.then(done, done);
  return result;
}

/**
 * Times the statements sent with a promise (Drizzle's, the pool's own and each checked-out
 * client's) for `onQuery`. The pool's `query` hands its client a callback, which is left as it
 * is: that statement is timed once, by the pool's wrapper.
 */
function timeQueries(
  handle: { query: (...args: never[]) => unknown },
  onQuery: (ms: number) => void,
) {
  const query = handle.query.bind(handle) as (...args: unknown[]) => unknown;
  handle.query = ((...args: unknown[]) => {
    const result = query(...args);
    return result instanceof Promise ? timed(result, onQuery) : result;
  }) as typeof handle.query;
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
  pool.on('connect', (client) => {
    client.on('error', () => {});
    if (options.onQuery) timeQueries(client, options.onQuery);
  });
  if (options.onQuery) timeQueries(pool, options.onQuery);
  const db = drizzlePg(pool, { schema }) as unknown as Db;

  // One Drizzle handle per pooled connection, kept while the connection lives, so statements
  // built once per handle (db/prepared.ts) stay built across the transactions that use it.
  const handles = new WeakMap<pg.PoolClient, Db>();
  async function withStatementLimits<T>(
    limits: StatementLimits,
    work: (db: Db) => Promise<T>,
  ): Promise<T> {
    const client = await pool.connect();
    let handle = handles.get(client);
    if (!handle) {
      handle = drizzlePg(client, { schema }) as unknown as Db;
      handles.set(client, handle);
    }
    let broken: Error | undefined;
    try {
      // SET LOCAL ends with the transaction: the connection goes back to the pool unlimited.
      await client.query(
        `begin; set local statement_timeout = ${Math.max(1, Math.floor(limits.timeoutMs))}; set local max_parallel_workers_per_gather = ${Math.max(0, Math.floor(limits.parallelWorkers))}`,
      );
      const result = await work(handle);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      client.release(broken);
    }
  }

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
    withStatementLimits,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    close: () => pool.end(),
  };
}

/** Raw SQL that both drivers run; PGlite and node-postgres both answer `{ rows }`. */
export async function queryRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

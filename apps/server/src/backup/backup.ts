// Backups that restore (decision 041): one tar archive holding the database, the photos of
// local storage and a manifest; `npm run backup` (cli/) calls this, and restore.ts beside it
// reads the archive back with the pieces exported here.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { create as createTar } from 'tar';
import { serverRoot, type Config } from '../config.ts';
import { openDatabase, queryRows } from '../db/client.ts';

const run = promisify(execFile);
const gzipAsync = promisify(gzip);

export const ARCHIVE_FORMAT = 'carmarket-backup/1';
export const MANIFEST = 'manifest.json';
const POSTGRES_DUMP = 'database.dump';
const PGLITE_DUMP = 'pglite-datadir.tgz';
export const UPLOADS = 'uploads';
export const UPLOADS_LIST = 'uploads.sha256';
export const AUTH_SECRET = 'auth-secret';

/** What `backup` and `restore` work on: the server's own settings (config.ts). */
export interface BackupTarget {
  /** PostgreSQL; without it, the embedded database in `$DATA_DIR/db`. */
  databaseUrl: string | undefined;
  dataDir: string;
  migrationsDir: string;
  /** `s3`: the photos are in the bucket, which keeps its own copies; the archive holds none. */
  photos: { storage: 'local' } | { storage: 's3'; bucket: string; prefix: string };
  /** BETTER_AUTH_SECRET is set: no `$DATA_DIR/auth-secret` to keep. */
  authSecretFromEnvironment: boolean;
}

export function backupTargetOf(config: Config): BackupTarget {
  return {
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    migrationsDir: config.migrationsDir,
    photos:
      config.STORAGE_DRIVER === 's3'
        ? { storage: 's3', bucket: config.S3_BUCKET ?? '', prefix: config.S3_PREFIX }
        : { storage: 'local' },
    authSecretFromEnvironment: config.BETTER_AUTH_SECRET !== undefined,
  };
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  carmarketVersion: string;
  /** When the database's snapshot was taken. */
  createdAt: string;
  database: { kind: 'postgres' | 'pglite'; file: string; serverVersion: string };
  /** The latest migration applied to the database (drizzle's `__drizzle_migrations`). */
  schemaVersion: { migration: string | null; createdAt: number };
  /** Rows per table (`schema.table`) in the snapshot the archive holds. */
  rowCounts: Record<string, number>;
  photos:
    | { storage: 'local'; files: number; bytes: number }
    | { storage: 's3'; bucket: string; prefix: string; note: string };
  /** Where the secret that signs sessions and encrypts the token keys came from. */
  authSecret: 'file' | 'environment' | 'none';
  /** sha256 (hex) of each part; each photo's is in `uploads.sha256` (`sha256sum -c` format). */
  checksums: Record<string, string>;
}

/** A refusal or failure to tell the operator as it is, without a stack. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupOptions {
  /** Told each step's name and seconds as it ends (the commands print them). */
  progress?: Progress | undefined;
  /** Tests: runs while pg_dump runs, after the snapshot was taken (writes it must not see). */
  duringDump?: () => Promise<void>;
}

export type Progress = (step: string, seconds: number) => void;

/** Runs `work`, then tells `progress` how long it took. */
export async function step<T>(
  progress: Progress | undefined,
  name: string,
  work: () => Promise<T>,
) {
  const started = performance.now();
  const result = await work();
  progress?.(name, (performance.now() - started) / 1000);
  return result;
}

/** Writes the archive to `outFile` (via a temporary name beside it); answers its manifest. */
export async function backup(
  target: BackupTarget,
  outFile: string,
  options: BackupOptions = {},
): Promise<Manifest> {
  const staging = await fs.mkdtemp(path.join(path.dirname(outFile), '.carmarket-backup-'));
  try {
    const database = await step(options.progress, 'database', () =>
      target.databaseUrl
        ? dumpPostgres(target.databaseUrl, target.migrationsDir, staging, options)
        : dumpPglite(target, staging),
    );
    const checksums: Record<string, string> = {
      [database.file]: await sha256File(path.join(staging, database.file)),
    };
    // After the snapshot: every photo it refers to is here (photos are never rewritten, and a
    // photo uploaded since is an unused extra).
    let photos: Manifest['photos'];
    if (target.photos.storage === 's3') {
      photos = {
        ...target.photos,
        note: 'The photos are in the bucket, not in this archive: back the bucket up with its own versioning or replication.',
      };
    } else {
      const staged = await step(options.progress, 'photos', () =>
        stageUploads(path.join(target.dataDir, UPLOADS), staging),
      );
      checksums[UPLOADS_LIST] = await sha256File(path.join(staging, UPLOADS_LIST));
      photos = { storage: 'local', ...staged };
    }
    let authSecret: Manifest['authSecret'] = target.authSecretFromEnvironment
      ? 'environment'
      : 'none';
    if (!target.authSecretFromEnvironment) {
      const copied = await fs
        .copyFile(path.join(target.dataDir, AUTH_SECRET), path.join(staging, AUTH_SECRET))
        .then(
          () => true,
          (error: NodeJS.ErrnoException) => {
            if (error.code === 'ENOENT') return false;
            throw error;
          },
        );
      if (copied) {
        authSecret = 'file';
        checksums[AUTH_SECRET] = await sha256File(path.join(staging, AUTH_SECRET));
      }
    }
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      carmarketVersion: await carmarketVersion(),
      createdAt: database.createdAt,
      database: { kind: database.kind, file: database.file, serverVersion: database.serverVersion },
      schemaVersion: database.schemaVersion,
      rowCounts: database.rowCounts,
      photos,
      authSecret,
      checksums,
    };
    await fs.writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const entries = [MANIFEST, database.file, ...Object.keys(checksums).slice(1)];
    if (photos.storage === 'local') entries.push(UPLOADS);
    const partial = `${outFile}.partial`;
    await step(options.progress, 'archive', () =>
      createTar({ file: partial, cwd: staging, portable: true }, entries),
    );
    await fs.rename(partial, outFile);
    return manifest;
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
    await fs.rm(`${outFile}.partial`, { force: true });
  }
}

interface DatabaseDump {
  kind: 'postgres' | 'pglite';
  file: string;
  createdAt: string;
  serverVersion: string;
  schemaVersion: Manifest['schemaVersion'];
  rowCounts: Record<string, number>;
}

/**
 * pg_dump's custom format from a snapshot this connection exported, so the row counts taken in
 * the same transaction are exactly what the dump holds, whatever the site writes meanwhile.
 */
async function dumpPostgres(
  url: string,
  migrationsDir: string,
  staging: string,
  options: BackupOptions,
): Promise<DatabaseDump> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin transaction isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id'))
      .rows[0]!.id;
    const facts = await client.query<{ now: Date; version: string }>(
      "select now() as now, current_setting('server_version') as version",
    );
    const query = async <T>(text: string) => (await client.query(text)).rows as T[];
    const schemaVersion = await readSchemaVersion(query, migrationsDir);
    const dumped = runTool('pg_dump', [
      '--format=custom',
      `--snapshot=${snapshot}`,
      `--file=${path.join(staging, POSTGRES_DUMP)}`,
      `--dbname=${url}`,
    ]);
    // The counts and the test's writes run while pg_dump reads the same snapshot.
    const [, rowCounts] = await Promise.all([dumped, countRows(query), options.duringDump?.()]);
    await client.query('commit');
    return {
      kind: 'postgres',
      file: POSTGRES_DUMP,
      createdAt: facts.rows[0]!.now.toISOString(),
      serverVersion: facts.rows[0]!.version,
      schemaVersion,
      rowCounts,
    };
  } finally {
    await client.end();
  }
}

/**
 * PGlite's own dump of its data directory, opened as the server opens it: while a server has it
 * open, its lock refuses (db/pglite-lock.ts).
 */
async function dumpPglite(target: BackupTarget, staging: string): Promise<DatabaseDump> {
  const dir = path.join(target.dataDir, 'db');
  if (!(await exists(path.join(dir, 'PG_VERSION')))) {
    throw new BackupError(`There is no embedded database in ${dir} to back up.`);
  }
  const database = await openDatabase({
    url: undefined,
    pgliteDir: dir,
    poolSize: 1,
    migrationsDir: target.migrationsDir,
  });
  try {
    const createdAt = new Date().toISOString();
    const query = <T>(text: string) => queryRows<T>(database.db, sql.raw(text));
    const [{ version }] = (await query<{ version: string }>(
      "select current_setting('server_version') as version",
    )) as [{ version: string }];
    const schemaVersion = await readSchemaVersion(query, target.migrationsDir);
    const rowCounts = await countRows(query);
    const dump = await database.dump!();
    await fs.writeFile(
      path.join(staging, PGLITE_DUMP),
      await gzipAsync(new Uint8Array(await dump.arrayBuffer())),
    );
    return {
      kind: 'pglite',
      file: PGLITE_DUMP,
      createdAt,
      serverVersion: `${version} (PGlite)`,
      schemaVersion,
      rowCounts,
    };
  } finally {
    await database.close();
  }
}

type Query = <T>(text: string) => Promise<T[]>;

async function readSchemaVersion(
  query: Query,
  migrationsDir: string,
): Promise<Manifest['schemaVersion']> {
  const [latest] = await query<{ created_at: string | number }>(
    'select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
  ).catch(() => []);
  if (!latest) throw new BackupError('The database has no CarMarket schema (no migrations ran).');
  const createdAt = Number(latest.created_at);
  const known = (await migrationJournal(migrationsDir)).find((entry) => entry.when === createdAt);
  return { migration: known?.tag ?? null, createdAt };
}

/** Every table's rows, in the schemas CarMarket writes (`public`, and drizzle's own). */
export async function countRows(query: Query): Promise<Record<string, number>> {
  const tables = await query<{ schemaname: string; tablename: string }>(
    "select schemaname, tablename from pg_tables where schemaname in ('public', 'drizzle') order by 1, 2",
  );
  const counts: Record<string, number> = {};
  for (const { schemaname, tablename } of tables) {
    const [row] = await query<{ n: string | number }>(
      `select count(*) as n from "${schemaname}"."${tablename}"`,
    );
    counts[`${schemaname}.${tablename}`] = Number(row!.n);
  }
  return counts;
}

/**
 * Hard links of the photos into `staging/uploads` (a copy across file systems), so a photo
 * deleted while the archive is written is still whole in it; and their sums, `sha256sum` style.
 */
async function stageUploads(
  uploadsDir: string,
  staging: string,
): Promise<{ files: number; bytes: number }> {
  const into = path.join(staging, UPLOADS);
  await fs.mkdir(into);
  const names = (await fs.readdir(uploadsDir).catch(() => [] as string[]))
    .filter((name) => !name.endsWith('.tmp'))
    .sort();
  const lines: string[] = [];
  let bytes = 0;
  for (const name of names) {
    const from = path.join(uploadsDir, name);
    const to = path.join(into, name);
    try {
      if (!(await fs.stat(from)).isFile()) continue;
      await fs.link(from, to).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw error;
        await fs.copyFile(from, to);
      });
    } catch (error) {
      // Deleted since it was listed.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    bytes += (await fs.stat(to)).size;
    lines.push(`${await sha256File(to)}  ${UPLOADS}/${name}`);
  }
  await fs.writeFile(path.join(staging, UPLOADS_LIST), lines.map((l) => `${l}\n`).join(''));
  return { files: lines.length, bytes };
}

export function runTool(command: string, args: string[]): Promise<{ stdout: string }> {
  return run(command, args, { maxBuffer: 256 * 1024 * 1024 }).catch(
    (error: NodeJS.ErrnoException & { stderr?: string }) => {
      if (error.code === 'ENOENT') {
        throw new BackupError(
          `${command} was not found: install the PostgreSQL client tools (the same major version as the server, or newer).`,
        );
      }
      throw new BackupError(`${command} failed: ${(error.stderr ?? error.message).trim()}`);
    },
  );
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

interface JournalEntry {
  tag: string;
  when: number;
}

export async function migrationJournal(migrationsDir: string): Promise<JournalEntry[]> {
  const text = await fs.readFile(path.join(migrationsDir, 'meta/_journal.json'), 'utf8');
  return (JSON.parse(text) as { entries: JournalEntry[] }).entries;
}

/** The project's version (its root package.json; the server's, where only that ships). */
async function carmarketVersion(): Promise<string> {
  for (const file of ['../../package.json', 'package.json']) {
    const text = await fs.readFile(path.join(serverRoot, file), 'utf8').catch(() => undefined);
    if (text) return (JSON.parse(text) as { version: string }).version;
  }
  return 'unknown';
}

// `npm run restore` (decision 041): an archive of backup.ts put back into an empty database and
// data directory, checked against its manifest, then migrated.
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { extract as extractTar } from 'tar';
import { openDatabase, queryRows } from '../db/client.ts';
import {
  ARCHIVE_FORMAT,
  AUTH_SECRET,
  BackupError,
  countRows,
  MANIFEST,
  migrationJournal,
  runTool,
  sha256File,
  step,
  UPLOADS,
  UPLOADS_LIST,
  type BackupTarget,
  type Manifest,
  type Progress,
} from './backup.ts';

const gunzipAsync = promisify(gunzip);

export interface RestoreResult {
  manifest: Manifest;
  /** Migrations this code ran after the restore (the archive was from an older version). */
  migrated: number;
}

/**
 * Restores the archive into an empty database and data directory: refuses a non-empty one, an
 * archive from a newer schema or of the other database kind, and any checksum that does not
 * match, before it writes anything; then restores, checks the row counts and migrates.
 */
export async function restore(
  target: BackupTarget,
  inFile: string,
  options: { progress?: Progress | undefined } = {},
): Promise<RestoreResult> {
  const { progress } = options;
  await fs.mkdir(target.dataDir, { recursive: true });
  await refuseNonEmpty(target);
  const staging = await fs.mkdtemp(path.join(target.dataDir, '.carmarket-restore-'));
  try {
    await step(progress, 'unpack', () =>
      extractTar({ file: inFile, cwd: staging }).catch((error: Error) => {
        throw new BackupError(`${inFile} is not a readable backup archive: ${error.message}`);
      }),
    );
    const manifest = await readManifest(staging);
    const kind = target.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.database.kind !== kind) {
      throw new BackupError(
        `The archive holds ${manifest.database.kind === 'postgres' ? 'a PostgreSQL' : 'an embedded (PGlite)'} database; ` +
          `this restore is into ${kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'the embedded database (no DATABASE_URL)'}. Restore into the same kind.`,
      );
    }
    const journal = await migrationJournal(target.migrationsDir);
    const latest = journal.at(-1)!;
    if (manifest.schemaVersion.createdAt > latest.when) {
      throw new BackupError(
        `The archive's schema (${manifest.schemaVersion.migration ?? 'unknown migration'}) is newer than this CarMarket knows ` +
          `(${latest.tag}): restore it with the version that made it (CarMarket ${manifest.carmarketVersion}) or a later one.`,
      );
    }
    await step(progress, 'checksums', () => verifyChecksums(staging, manifest));
    if (manifest.authSecret === 'file') await placeAuthSecret(target, staging);

    let pgliteDump: Blob | undefined;
    if (target.databaseUrl) {
      await restorePostgres(
        target.databaseUrl,
        path.join(staging, manifest.database.file),
        progress,
      );
    } else {
      // Loaded as the database opens, below.
      const dump = await gunzipAsync(await fs.readFile(path.join(staging, manifest.database.file)));
      pgliteDump = new Blob([new Uint8Array(dump)]);
    }
    if (manifest.photos.storage === 'local') {
      const uploadsDir = path.join(target.dataDir, UPLOADS);
      await fs.rmdir(uploadsDir).catch(() => {}); // empty, or absent (refuseNonEmpty)
      await fs.rename(path.join(staging, UPLOADS), uploadsDir);
    }

    const database = await openDatabase({
      url: target.databaseUrl,
      pgliteDir: path.join(target.dataDir, 'db'),
      pgliteDump,
      poolSize: 2,
      migrationsDir: target.migrationsDir,
    });
    try {
      const query = <T>(text: string) => queryRows<T>(database.db, sql.raw(text));
      const counts = await step(progress, 'row counts', () => countRows(query));
      const differing = Object.keys({ ...counts, ...manifest.rowCounts }).filter(
        (table) => counts[table] !== manifest.rowCounts[table],
      );
      if (differing.length > 0) {
        throw new BackupError(
          `The restored database's row counts differ from the manifest's in ${differing.join(', ')}.`,
        );
      }
      const before = counts['drizzle.__drizzle_migrations'] ?? 0;
      await step(progress, 'migrations', () => database.withStartupLock(() => database.migrate()));
      const [after] = await query<{ n: string | number }>(
        'select count(*) as n from drizzle.__drizzle_migrations',
      );
      return { manifest, migrated: Number(after!.n) - before };
    } finally {
      await database.close();
    }
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

async function refuseNonEmpty(target: BackupTarget): Promise<void> {
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        `select n.nspname || '.' || c.relname as name from pg_class c
           join pg_namespace n on n.oid = c.relnamespace
          where c.relkind in ('r', 'p', 'v', 'm', 'S')
            and n.nspname not in ('pg_catalog', 'information_schema')
            and n.nspname not like 'pg\\_%'
          limit 3`,
      );
      if (rows.length > 0) {
        throw new BackupError(
          `The database in DATABASE_URL is not empty (it has ${rows.map((r) => r.name).join(', ')}...). ` +
            'Restore into a new, empty database: createdb, then point DATABASE_URL at it.',
        );
      }
    } finally {
      await client.end();
    }
  } else {
    const dir = path.join(target.dataDir, 'db');
    if ((await fs.readdir(dir).catch(() => [])).length > 0) {
      throw new BackupError(
        `${dir} already holds an embedded database. Restore into an empty DATA_DIR.`,
      );
    }
  }
  const uploadsDir = path.join(target.dataDir, UPLOADS);
  if ((await fs.readdir(uploadsDir).catch(() => [])).length > 0) {
    throw new BackupError(
      `${uploadsDir} is not empty. Restore into an empty DATA_DIR (or move the photos away).`,
    );
  }
}

async function readManifest(staging: string): Promise<Manifest> {
  const text = await fs.readFile(path.join(staging, MANIFEST), 'utf8').catch(() => {
    throw new BackupError('The archive has no manifest.json: it is not a CarMarket backup.');
  });
  const manifest = JSON.parse(text) as Manifest;
  if (manifest.format !== ARCHIVE_FORMAT) {
    throw new BackupError(
      `The archive's format is ${String(manifest.format)}, not ${ARCHIVE_FORMAT}.`,
    );
  }
  return manifest;
}

/** Each part against the manifest, then each photo against `uploads.sha256`, exactly. */
async function verifyChecksums(staging: string, manifest: Manifest): Promise<void> {
  for (const [file, expected] of Object.entries(manifest.checksums)) {
    const actual = await sha256File(path.join(staging, file)).catch(() => 'missing');
    if (actual !== expected) {
      throw new BackupError(
        `${file} in the archive does not match its checksum (${actual === 'missing' ? 'missing' : 'changed'}): the archive is damaged. Nothing was restored.`,
      );
    }
  }
  if (manifest.photos.storage !== 'local') return;
  const listed = new Map(
    (await fs.readFile(path.join(staging, UPLOADS_LIST), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [sum, name] = line.split(/ {2}/) as [string, string];
        return [path.basename(name), sum];
      }),
  );
  const present = await fs.readdir(path.join(staging, UPLOADS)).catch(() => [] as string[]);
  const unlisted = present.filter((name) => !listed.has(name));
  const damaged: string[] = [];
  for (const [name, sum] of listed) {
    const actual = await sha256File(path.join(staging, UPLOADS, name)).catch(() => 'missing');
    if (actual !== sum) damaged.push(name);
  }
  if (damaged.length > 0 || unlisted.length > 0) {
    throw new BackupError(
      `Photos in the archive do not match uploads.sha256 (${[...damaged, ...unlisted].slice(0, 3).join(', ')}): the archive is damaged. Nothing was restored.`,
    );
  }
}

async function placeAuthSecret(target: BackupTarget, staging: string): Promise<void> {
  if (target.authSecretFromEnvironment) return; // BETTER_AUTH_SECRET wins; the docs say to keep it
  const file = path.join(target.dataDir, AUTH_SECRET);
  const archived = await fs.readFile(path.join(staging, AUTH_SECRET), 'utf8');
  const present = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (present !== undefined && present.trim() !== archived.trim()) {
    throw new BackupError(
      `${file} differs from the archive's: sessions and the API's token keys need the archived one. Remove ${file}, then restore again.`,
    );
  }
  await fs.writeFile(file, archived, { mode: 0o600 });
}

/**
 * pg_restore in one transaction (a failed restore leaves the database empty, to try again),
 * without owners or grants (the target's role owns everything), nor the extensions' comments
 * (only their owner, a superuser, may set those); then the indexes that call earthdistance; then
 * ANALYZE, which pg_restore leaves undone.
 */
async function restorePostgres(
  url: string,
  dump: string,
  progress: Progress | undefined,
): Promise<void> {
  const toc = (await runTool('pg_restore', ['--list', dump])).stdout
    .split('\n')
    .filter((line) => !/ COMMENT - EXTENSION /.test(line));
  const earthIndexes = await earthdistanceIndexes(dump, toc);
  const list = `${dump}.list`;
  await fs.writeFile(
    list,
    toc.filter((line) => !earthIndexes.some((index) => index.tocLine === line)).join('\n'),
  );
  await step(progress, 'pg_restore', () =>
    runTool('pg_restore', [
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      '--no-privileges',
      `--use-list=${list}`,
      `--dbname=${url}`,
      dump,
    ]),
  );
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await step(progress, 'distance indexes', async () => {
      const [{ schema }] = (
        await client.query<{ schema: string }>(
          `select quote_ident(n.nspname) as schema from pg_extension x
             join pg_namespace n on n.oid = x.extnamespace where x.extname = 'earthdistance'`,
        )
      ).rows as [{ schema: string }];
      await client.query(`set search_path = ${schema}, public`);
      for (const index of earthIndexes) await client.query(index.sql);
      await client.query('reset search_path');
    });
    await step(progress, 'analyze', () => client.query('analyze'));
  } finally {
    await client.end();
  }
}

/**
 * The dump's indexes whose definition calls earthdistance (the car-distance index,
 * `listing_onsale_place_idx`): its `ll_to_earth` names the `earth` type and function without
 * their schema, and pg_restore builds indexes with an empty search_path, so they fail there
 * ('type "earth" does not exist'). They are built after it, with the search_path the migrations
 * had.
 */
async function earthdistanceIndexes(
  dump: string,
  toc: string[],
): Promise<Array<{ tocLine: string; sql: string }>> {
  const indexLines = toc.filter((line) => /^\d+; \d+ \d+ INDEX /.test(line));
  if (indexLines.length === 0) return [];
  const list = `${dump}.indexes`;
  await fs.writeFile(list, indexLines.join('\n'));
  const { stdout } = await runTool('pg_restore', ['--file=-', `--use-list=${list}`, dump]);
  const statements = stdout.match(/^CREATE (UNIQUE )?INDEX .*;$/gm) ?? [];
  return statements
    .filter((statement) => /ll_to_earth|earth_box|earth_distance/.test(statement))
    .map((statement) => {
      const name = /INDEX (\S+) ON /.exec(statement)![1]!;
      // A TOC line: `<id>; <class> <oid> INDEX <schema> <name> <owner>`.
      const tocLine = indexLines.find((line) => line.split(' ')[5] === name);
      if (!tocLine) throw new BackupError(`The dump's index ${name} is not in its list.`);
      return { tocLine, sql: statement };
    });
}

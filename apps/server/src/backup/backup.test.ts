import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { create as createTar, extract as extractTar } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, serverRoot } from '../config.ts';
import { openDatabase, queryRows } from '../db/client.ts';
import { DatabaseInUseError } from '../db/pglite-lock.ts';
import { listing } from '../db/schema.ts';
import { ask, send } from '../modules/messages/messages.test-helpers.ts';
import { ledgerOf, ledgerSum } from '../modules/payouts/payouts.test-helpers.ts';
import { register, signInAs } from '../test/client.ts';
import { bookingOf, newCar, newSeller, paidBooking } from '../test/fixtures.ts';
import { fromPreparedDatabase, TEST_APP_ENV } from '../test/prepared-database.ts';
import { createTestDatabase, startTestApp, type TestApp } from '../test/test-app.ts';
import { uploadPhoto } from '../test/uploads.ts';
import { backup, BackupError, backupTargetOf, type BackupTarget, type Manifest } from './backup.ts';
import { restore } from './restore.ts';

const run = promisify(execFile);
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const scratch: string[] = [];
afterAll(() =>
  Promise.all(scratch.map((dir) => fs.rm(dir, { recursive: true, force: true }))).then(() => {}),
);

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-backup-test-'));
  scratch.push(dir);
  return dir;
}

/** A fresh, empty place to restore into: a new data directory (and PostgreSQL database). */
async function emptyTarget(): Promise<BackupTarget> {
  const dataDir = await tempDir();
  const databaseUrl = await createTestDatabase();
  return backupTargetOf(
    loadConfig({
      ...TEST_APP_ENV,
      DATA_DIR: dataDir,
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    }),
  );
}

/**
 * A test app whose data a backup can read: on PostgreSQL any, on PGlite one whose embedded
 * database is on disk (a copy of the prepared one), not in the test process's memory.
 */
async function appOnDisk(): Promise<TestApp> {
  if (onPostgres) return startTestApp();
  const dataDir = await tempDir();
  const prepared = await fromPreparedDatabase(dataDir);
  const copy = await openDatabase({
    pgliteDir: path.join(dataDir, 'db'),
    pgliteDump: prepared!.pgliteDump,
    poolSize: 1,
    migrationsDir: loadConfig(TEST_APP_ENV).migrationsDir,
  });
  await copy.close();
  return startTestApp({ reuse: { dataDir } });
}

const countsOf = async (app: TestApp, tables: string[]) =>
  Object.fromEntries(
    await Promise.all(
      tables.map(async (table) => {
        const [schema, name] = table.split('.') as [string, string];
        const [row] = await queryRows<{ n: string | number }>(
          app.database.db,
          sql.raw(`select count(*) as n from "${schema}"."${name}"`),
        );
        return [table, Number(row!.n)] as const;
      }),
    ),
  );

/** Rewrites one file inside an archive, the rest kept as it was. */
async function alteredArchive(archive: string, file: string, change: (bytes: Buffer) => Buffer) {
  const dir = await tempDir();
  await extractTar({ file: archive, cwd: dir });
  await fs.writeFile(path.join(dir, file), change(await fs.readFile(path.join(dir, file))));
  const altered = path.join(await tempDir(), 'altered.tar');
  await createTar({ file: altered, cwd: dir }, await fs.readdir(dir));
  return altered;
}

describe('npm run backup and npm run restore', () => {
  it('restores a site taken while it was written to: the same rows, photos, sign-ins and ledger', async () => {
    const source = await appOnDisk();
    let sourceClosed = false;
    try {
      // People, cars with photos, a paid and handed-over booking, messages.
      const seller = await newSeller(source);
      const { car, buyer, bookingId } = await paidBooking(source, { seller });
      expect((await buyer.post(`/api/booked/${bookingId}/handover`)).status).toBe(200);
      const other = await newCar(source, { seller });
      const extraPhoto = await uploadPhoto(seller);
      const asked = await ask(buyer, other.id, 'Is the spare key included?');
      expect((await send(seller, asked.conversationId, 'Yes, both keys.')).status).toBe(200);
      const [row] = await source.database.db
        .select({ images: listing.images })
        .from(listing)
        .where(eq(listing.id, car.id));
      const photoUrls = [
        ...row!.images.flatMap((image) => [image.url, image.thumbUrl]),
        extraPhoto,
      ];
      const photos = await Promise.all(
        photoUrls.map(async (url) => Buffer.from(await (await source.request(url)).arrayBuffer())),
      );
      const ledger = await ledgerOf(source, bookingId);
      expect(ledger.map((line) => line.movement)).toContain('release');

      const archive = path.join(await tempDir(), 'site.tar');
      const target = backupTargetOf(
        loadConfig({
          ...TEST_APP_ENV,
          DATA_DIR: source.dataDir,
          ...(source.databaseUrl && { DATABASE_URL: source.databaseUrl }),
        }),
      );
      let manifest: Manifest;
      if (onPostgres) {
        // The site keeps taking writes while pg_dump runs: none of them is in the archive.
        let writtenDuring = 0;
        manifest = await backup(target, archive, {
          duringDump: async () => {
            const late = await ask(await register(source), other.id, 'Written during the backup');
            expect(late.conversationId).toBeTruthy();
            writtenDuring += 1;
          },
        });
        expect(writtenDuring).toBe(1);
      } else {
        // One process opens an embedded database: the running server's lock refuses the backup.
        await expect(backup(target, archive)).rejects.toThrow(DatabaseInUseError);
        await source.close();
        sourceClosed = true;
        manifest = await backup(target, archive);
      }
      expect(manifest.schemaVersion.migration).toMatch(/^\d{4}_/);
      expect(manifest.photos).toMatchObject({ storage: 'local' });
      expect(manifest.rowCounts['public.booking']).toBeGreaterThan(0);

      const into = await emptyTarget();
      const { migrated } = await restore(into, archive);
      expect(migrated).toBe(0);
      const restored = await startTestApp({
        reuse: { dataDir: into.dataDir, databaseUrl: into.databaseUrl },
      });
      try {
        // The rows of the snapshot, table by table.
        const tables = Object.keys(manifest.rowCounts);
        expect(await countsOf(restored, tables)).toEqual(manifest.rowCounts);
        const [during] = await queryRows<{ n: string | number }>(
          restored.database.db,
          sql`select count(*) as n from message where body = 'Written during the backup'`,
        );
        expect(Number(during!.n)).toBe(0);
        // The photos load, byte for byte.
        for (const [index, url] of photoUrls.entries()) {
          const response = await restored.request(url);
          expect(response.status).toBe(200);
          expect(Buffer.from(await response.arrayBuffer())).toEqual(photos[index]);
        }
        // People sign in with their passwords; the booking is handed over; the ledger balances.
        const buyerAgain = await signInAs(restored, buyer.account.email, buyer.account.password);
        expect((await bookingOf(buyerAgain, bookingId)).handover?.state).toBe('released');
        const conversation = await buyerAgain.get(`/api/conversations/${asked.conversationId}`);
        expect(conversation.status).toBe(200);
        expect(await ledgerOf(restored, bookingId)).toEqual(ledger);
        expect(await ledgerSum(restored)).toBe(0);
      } finally {
        await restored.close();
      }

      // Again into the same, now non-empty, place: the command refuses and exits non-zero.
      const cli = run(
        process.execPath,
        ['--import', 'tsx', path.join(serverRoot, 'src/cli/restore.ts'), '--in', archive],
        {
          env: {
            ...process.env,
            ...TEST_APP_ENV,
            DATA_DIR: into.dataDir,
            ...(into.databaseUrl && { DATABASE_URL: into.databaseUrl }),
          },
        },
      );
      // (It runs in its own process while the refusals below run here.)
      const cliOutcome = cli.then(
        () => ({ code: 0, stderr: '' }),
        (error: unknown) => error,
      );

      // A damaged archive fails its checksum, and nothing is restored.
      const damaged = await alteredArchive(archive, manifest.database.file, (bytes) => {
        const middle = bytes.length >> 1;
        bytes.writeUInt8(bytes.readUInt8(middle) ^ 0xff, middle);
        return bytes;
      });
      const clean = await emptyTarget();
      await expect(restore(clean, damaged)).rejects.toThrow(/does not match its checksum/);
      // An archive from a schema newer than this code's is refused.
      const future = await alteredArchive(archive, 'manifest.json', (bytes) => {
        const newer = JSON.parse(bytes.toString()) as Manifest;
        newer.schemaVersion = {
          migration: '9999_from_the_future',
          createdAt: newer.schemaVersion.createdAt + 1,
        };
        return Buffer.from(JSON.stringify(newer));
      });
      const refused = await restore(clean, future).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(BackupError);
      expect((refused as Error).message).toMatch(/newer than this CarMarket knows/);
      expect(await cliOutcome).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/restore failed: .*(not empty|already holds)/),
      });
      // Both refusals wrote nothing.
      expect(await fs.readdir(clean.dataDir)).toEqual([]);
      if (clean.databaseUrl) {
        const empty = await openDatabase({
          ...clean,
          url: clean.databaseUrl,
          pgliteDir: '',
          poolSize: 1,
        });
        const tables = await queryRows(
          empty.db,
          sql`select 1 from pg_tables where schemaname in ('public', 'drizzle')`,
        );
        await empty.close();
        expect(tables).toEqual([]);
      }
    } finally {
      if (!sourceClosed) await source.close();
    }
  }, 60_000);
});

// `npm run restore -- --in FILE`: restores an archive of `npm run backup` into an empty database
// and data directory, checks it, then migrates (decision 041).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { backupTargetOf } from '../backup/backup.ts';
import { restore } from '../backup/restore.ts';
import { loadConfig } from '../config.ts';
import { progress, runArchiveCommand, UsageError } from './archive-command.ts';

async function main() {
  const { values } = parseArgs({ options: { in: { type: 'string' } } });
  if (!values.in) throw new UsageError('--in is required');
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.in);
  const started = performance.now();
  const target = backupTargetOf(loadConfig());
  const { manifest, migrated } = await restore(target, file, { progress });
  const rows = Object.values(manifest.rowCounts).reduce((sum, n) => sum + n, 0);
  console.log(
    `Restored ${file} (taken ${manifest.createdAt} by CarMarket ${manifest.carmarketVersion}): ` +
      `${rows} rows in ${Object.keys(manifest.rowCounts).length} tables, checked against the manifest; ` +
      `${migrated} migrations run since; in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
  if (manifest.photos.storage === 's3') {
    console.log(
      `The photos are not in the archive: they are in the bucket ${manifest.photos.bucket} (prefix "${manifest.photos.prefix}"). Point STORAGE_DRIVER=s3 and S3_* at it.`,
    );
  } else if (target.photos.storage === 's3') {
    console.log(
      `${manifest.photos.files} photos were restored into ${path.join(target.dataDir, 'uploads')}, but STORAGE_DRIVER is s3: copy them into the bucket.`,
    );
  }
  if (manifest.authSecret === 'environment') {
    console.log('The backed-up site set BETTER_AUTH_SECRET: set the same value here.');
  }
}

runArchiveCommand('restore', 'npm run restore -- --in carmarket-backup.tar', main);

// `npm run backup -- --out FILE`: one archive of the database, the photos of local storage and a
// manifest (decision 041), from the DATABASE_URL and DATA_DIR the server uses.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { backup, backupTargetOf } from '../backup/backup.ts';
import { loadConfig } from '../config.ts';
import { progress, runArchiveCommand, UsageError } from './archive-command.ts';

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (!values.out) throw new UsageError('--out is required');
  // npm runs scripts from the project's folder; a relative name is where the command was typed.
  const out = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out);
  const started = performance.now();
  const manifest = await backup(backupTargetOf(loadConfig()), out, { progress });
  const rows = Object.values(manifest.rowCounts).reduce((sum, n) => sum + n, 0);
  const photos =
    manifest.photos.storage === 'local'
      ? `${manifest.photos.files} photos`
      : `no photos (they are in the bucket ${manifest.photos.bucket})`;
  console.log(
    `${out}: ${manifest.database.kind === 'postgres' ? 'PostgreSQL' : 'embedded'} database at ` +
      `${manifest.schemaVersion.migration}, ${rows} rows in ${Object.keys(manifest.rowCounts).length} tables, ` +
      `${photos}, in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
}

runArchiveCommand('backup', 'npm run backup -- --out carmarket-backup.tar', main);

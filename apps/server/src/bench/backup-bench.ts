// `npm run bench:backup`: a backup and a restore of a PostgreSQL database of 1,000,000 cars on
// sale (BENCH_PG_CARS), then the restored site started (migrations at start timed) and searched
// (decision 041). Its databases are dropped at the end; `--reuse` keeps the seeded one's cars
// from an earlier run of a search bench.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { backup, backupTargetOf } from '../backup/backup.ts';
import { restore } from '../backup/restore.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { adminUrl, dataArrays, root, seedPostgres, signIn, startServer } from './bench-cars.ts';

const cars = Number(process.env.BENCH_PG_CARS ?? 1_000_000);
const port = Number(process.env.BENCH_PORT ?? 3298);
const flags = new Set(process.argv.slice(2));
const SOURCE = 'carmarket_bench_backup';
const TARGET = 'carmarket_bench_restored';

const progress = (step: string, s: number) => console.log(`  ${step}: ${s.toFixed(1)} s`);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const urlOf = (name: string) => Object.assign(new URL(adminUrl), { pathname: `/${name}` }).href;

async function admin(query: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

const build = spawnSync('npm', ['run', '--silent', 'build:server'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-backup-bench-'));
try {
  const data = dataArrays();
  const sourceUrl = await seedPostgres({
    cars,
    data,
    port,
    reuse: flags.has('--reuse'),
    name: SOURCE,
  });
  const sourceDir = path.join(work, 'source');
  const archive = path.join(work, 'site.tar');
  const env = { NODE_ENV: 'test', LOG_LEVEL: 'silent' };

  let started = performance.now();
  const manifest = await backup(
    backupTargetOf(loadConfig({ ...env, DATA_DIR: sourceDir, DATABASE_URL: sourceUrl })),
    archive,
    { progress },
  );
  const archiveMb = (await fs.stat(archive)).size / 1024 / 1024;
  console.log(
    `backup: ${seconds(started)}, ${archiveMb.toFixed(0)} MB, ${manifest.rowCounts['public.listing']} cars`,
  );

  await admin(`drop database if exists ${TARGET} with (force)`);
  await admin(`create database ${TARGET}`);
  const targetUrl = urlOf(TARGET);
  const targetDir = path.join(work, 'restored');
  const target = backupTargetOf(
    loadConfig({ ...env, DATA_DIR: targetDir, DATABASE_URL: targetUrl }),
  );
  started = performance.now();
  await restore(target, archive, { progress });
  console.log(`restore (with ANALYZE, the row counts checked and migrate): ${seconds(started)}`);

  // What each start pays when there is nothing to migrate.
  const database = await openDatabase({
    url: targetUrl,
    pgliteDir: '',
    poolSize: 2,
    migrationsDir: target.migrationsDir,
  });
  started = performance.now();
  await database.withStartupLock(() => database.migrate());
  console.log(`migrations at start, none pending: ${seconds(started)}`);
  // The distance index rebuilt by the restore (ll_to_earth with its search_path set) is used.
  const plan = await database.db.execute(
    sql.raw(
      "explain select count(*) from listing where earth_box(ll_to_earth(40.7, -74.0), 50000) @> ll_to_earth(lat, lng) and status in ('available', 'reserved') and lat is not null",
    ),
  );
  const planText = JSON.stringify((plan as unknown as { rows: unknown[] }).rows);
  console.log(
    `distance search uses listing_onsale_place_idx: ${planText.includes('listing_onsale_place_idx')}`,
  );
  // The big migrations' work, again on the restored cars: what an upgrade that brings one pays at
  // start (0018 builds a partial index of the cars on sale; 0017 wrote every rated car, then
  // built the filters index, timed here without the writes: no car is rated in this database).
  for (const index of ['listing_onsale_seller_idx', 'listing_onsale_filters_idx']) {
    const [{ indexdef }] = (
      (await database.db.execute(
        sql.raw(`select indexdef from pg_indexes where indexname = '${index}'`),
      )) as unknown as { rows: Array<{ indexdef: string }> }
    ).rows as [{ indexdef: string }];
    await database.db.execute(sql.raw(`drop index ${index}`));
    started = performance.now();
    await database.db.execute(sql.raw(indexdef));
    console.log(`migration work: ${index} built in ${seconds(started)}`);
  }
  await database.close();

  started = performance.now();
  const server = await startServer(port, { DATABASE_URL: targetUrl, DATA_DIR: targetDir });
  console.log(`restored server ready: ${seconds(started)}`);
  try {
    const cookie = await signIn(server.origin);
    const near = data.places.find((place) => place.label === 'New York City, NY')!;
    for (const query of ['q=toyota', `near=${near.id}&radiusKm=50&sort=distance`]) {
      started = performance.now();
      const response = await fetch(`${server.origin}/api/listings?${query}`, {
        headers: { cookie },
      });
      const body = (await response.json()) as { total?: number };
      console.log(
        `restored site's search ${query}: ${response.status} in ${seconds(started)}, total ${String(body.total)}`,
      );
      if (response.status !== 200) process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
} finally {
  await fs.rm(work, { recursive: true, force: true });
  if (!flags.has('--keep')) {
    await admin(`drop database if exists ${TARGET} with (force)`);
    await admin(`drop database if exists ${SOURCE} with (force)`);
  }
}

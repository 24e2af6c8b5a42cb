// The server the browser tests run against: the production bundle with a fresh database
// (a new PostgreSQL database when TEST_DATABASE_URL is set, else a fresh embedded one).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const dataDir = path.join(root, '.data-test-e2e');
fs.rmSync(dataDir, { recursive: true, force: true });

process.env.DATA_DIR = dataDir;
process.env.HOST = '127.0.0.1';
process.env.LOG_LEVEL ??= 'warn';
process.env.NODE_ENV = 'test';

const adminUrl = process.env.TEST_DATABASE_URL;
if (adminUrl) {
  const name = `carmarket_e2e_${Date.now()}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  // Leftovers of earlier runs go first; this run's database stays for inspection until the next.
  const old = await client.query(
    "select datname from pg_database where datname like 'carmarket_e2e_%'",
  );
  for (const { datname } of old.rows) await client.query(`drop database "${datname}" with (force)`);
  await client.query(`create database "${name}"`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  console.log(`e2e server on PostgreSQL database ${name}`);
}

await import(path.join(root, 'apps/server/dist/server.js'));

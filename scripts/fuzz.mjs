// `npm run fuzz [bodies per route]`: the fuzz test of every JSON route with many more bodies
// than `npm test` sends (10,000 per route by default), on embedded PGlite, or on PostgreSQL when
// TEST_DATABASE_URL is set. Prints, per route, the bodies sent, the 5xx answers (0) and the
// slowest answer; the run goes on to the end and then lists every problem (a 5xx, a slow answer,
// a refused body that changed data) with its seed. FUZZ_SEED=<n> replays a run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const runs = process.argv[2] ?? process.env.FUZZ_RUNS ?? '10000';
const result = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'api-once', 'apps/server/src/modules/system/fuzz.test.ts'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, FUZZ_RUNS: runs } },
);
process.exit(result.status ?? 1);

import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Two projects (decision 023): `api` starts the real server on a database, and `npm test` runs
 * it on PGlite and again on PostgreSQL; `unit` needs no database and runs once.
 */
export default defineConfig({
  test: {
    // Two test files at a time at least, where Vitest's default is the cores less one (one file
    // on a 2-core machine): an API test spends much of its time waiting on its database, so two
    // fill two cores (the PostgreSQL round: 412 s one at a time, 220 s two at a time).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'api',
          include: ['apps/server/src/**/*.test.ts'],
          // No database: config is parsed, and `npm start` always runs on the embedded one.
          exclude: [
            'apps/server/src/config.test.ts',
            'apps/server/src/jobs/job.test.ts',
            'apps/server/src/lib/cursor.test.ts',
            'apps/server/src/module-graph.test.ts',
            'apps/server/src/modules/system/start.test.ts',
            'apps/server/src/seed/demo-data.test.ts',
          ],
          setupFiles: ['apps/server/src/test/setup.ts'],
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'packages/shared/src/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
            'apps/server/src/config.test.ts',
            'apps/server/src/jobs/job.test.ts',
            'apps/server/src/lib/cursor.test.ts',
            'apps/server/src/module-graph.test.ts',
            'apps/server/src/modules/system/start.test.ts',
            'apps/server/src/seed/demo-data.test.ts',
            'scripts/config-doc.test.mjs',
          ],
          environment: 'node',
          pool: 'forks',
        },
      },
    ],
  },
});

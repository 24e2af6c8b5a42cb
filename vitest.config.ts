import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Server tests that need no database at all: config parsing, the demo data, and `npm start`
 * (always PGlite). The VIN decoder's test is here too: it puts a stand-in for the decoder's process
 * (`vi.mock`, which the server projects' shared workers forbid) behind a server on PGlite.
 */
const noDatabase = [
  'apps/server/src/config.test.ts',
  'apps/server/src/jobs/job.test.ts',
  'apps/server/src/lib/cursor.test.ts',
  'apps/server/src/module-graph.test.ts',
  'apps/server/src/modules/price-guide/price-guide.model.test.ts',
  'apps/server/src/modules/system/start.test.ts',
  'apps/server/src/modules/vin/vin-decoder.test.ts',
  'apps/server/src/modules/vin/vin-mapping.test.ts',
  'apps/server/src/seed/demo-data.test.ts',
];

/**
 * Server tests whose subject is not the database (decision 031): sign-in flows and their limits,
 * input checks and the fuzz, who may call what, live streams, mail, uploads, the CLI, serving the
 * pages. They start the server on a database like the others, but nothing they check differs
 * between PGlite and PostgreSQL, so they run once: on PostgreSQL when `TEST_DATABASE_URL` is set,
 * else on PGlite.
 */
const once = [
  'apps/server/src/adapters/s3-storage.test.ts',
  'apps/server/src/cli/create-admin.test.ts',
  'apps/server/src/modules/auth/deleted-accounts.test.ts',
  'apps/server/src/modules/auth/email-links.test.ts',
  'apps/server/src/modules/auth/google-sign-in.test.ts',
  'apps/server/src/modules/auth/password-hashing.test.ts',
  'apps/server/src/modules/auth/settings-devices.test.ts',
  'apps/server/src/modules/auth/settings.test.ts',
  'apps/server/src/modules/auth/sign-in-limits.test.ts',
  'apps/server/src/modules/auth/sign-up-limits.test.ts',
  'apps/server/src/modules/auth/verified-email.test.ts',
  'apps/server/src/modules/messages/live.test.ts',
  'apps/server/src/modules/messages/message-limits.test.ts',
  'apps/server/src/modules/messages/message-mail.test.ts',
  'apps/server/src/modules/payments/hold-limits.test.ts',
  'apps/server/src/modules/payments/stripe.test.ts',
  'apps/server/src/modules/saved/alert-mail-limits.test.ts',
  'apps/server/src/modules/system/access-matrix.test.ts',
  'apps/server/src/modules/system/bad-input.test.ts',
  'apps/server/src/modules/system/fuzz.test.ts',
  'apps/server/src/modules/system/input.test.ts',
  'apps/server/src/modules/system/proxy-trust.test.ts',
  'apps/server/src/modules/system/shutdown.test.ts',
  'apps/server/src/modules/system/system.test.ts',
  'apps/server/src/modules/uploads/uploads.test.ts',
  'apps/server/src/modules/vin/vin.test.ts',
  'apps/server/src/plugins/csrf.test.ts',
  'apps/server/src/plugins/web.test.ts',
];

/**
 * What a project that starts the real server needs (decision 023: a database prepared once).
 * Its files share their worker process (`isolate: false`, decision 038): the server's modules,
 * PGlite's WebAssembly and the prepared database's dump are loaded once per worker rather than
 * once per file (the PostgreSQL round: 273 s isolated, 150 s shared). Each file still starts its
 * own app on its own database; a server test may not change module state (no `vi.mock`, no
 * `process.env` writes): what it needs differently goes in startTestApp's `env`.
 */
const serverTests = {
  setupFiles: ['apps/server/src/test/setup.ts'],
  globalSetup: ['apps/server/src/test/global-setup.ts'],
  pool: 'forks',
  isolate: false,
} as const;

/**
 * Four projects: `api` starts the real server on a database, and `npm test` runs it on PGlite
 * and again on PostgreSQL (the database is what it tests); `api-once` starts it too and runs
 * once; `unit` needs no database and runs once; `web` renders web components in happy-dom and
 * runs once (decisions 023, 031, 038).
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
          exclude: [...noDatabase, ...once],
          ...serverTests,
        },
      },
      {
        extends: true,
        test: { name: 'api-once', include: once, ...serverTests },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'packages/shared/src/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
            ...noDatabase,
            'scripts/config-doc.test.mjs',
          ],
          environment: 'node',
          pool: 'forks',
        },
      },
      {
        // What one web component shows in each state, in a simulated DOM (docs/testing.md).
        extends: true,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['apps/web/src/testing/setup.ts'],
          // One document per worker, cleaned after each test (testing/setup.ts): a fresh one per
          // file took 43 s for 29 files, against 9 s. Stubs and spies go back after each test.
          pool: 'threads',
          isolate: false,
          unstubGlobals: true,
          restoreMocks: true,
        },
      },
    ],
  },
});

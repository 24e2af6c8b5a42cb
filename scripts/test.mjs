// `npm test`: typecheck, lint, build, API tests (PGlite, then PostgreSQL when TEST_DATABASE_URL
// is set), browser tests; ends with one "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  console.error(`
The browser tests need Chromium at ${chromium}, and it is not there.
Install Debian's package (no browser is downloaded by this project):

    sudo apt-get update && sudo apt-get install -y chromium

or point CHROMIUM_PATH at another Chromium or Chrome binary, then run npm test again.
`);
  process.exit(1);
}

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

function step(label, command, args, env = {}) {
  console.log(`\n=== ${label}`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) failedSteps.push(label);
  return result.status === 0;
}

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const { stats } = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
}

const ok =
  step('typecheck', 'npm', ['run', '--silent', 'typecheck']) &&
  step('lint', 'npm', ['run', '--silent', 'lint']) &&
  step('build', 'npm', ['run', '--silent', 'build']);

if (ok) {
  const vitestArgs = (name) => [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${path.join(reports, name)}`,
  ];
  const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;
  console.log('\n=== API and unit tests on embedded PGlite');
  const pglite = spawnSync('npx', vitestArgs('vitest-pglite.json'), {
    cwd: root,
    stdio: 'inherit',
    env: withoutPostgres,
  });
  if (pglite.status !== 0) failedSteps.push('API tests (PGlite)');
  countVitest(path.join(reports, 'vitest-pglite.json'));

  if (TEST_DATABASE_URL) {
    step('API and unit tests on PostgreSQL', 'npx', vitestArgs('vitest-postgres.json'));
    countVitest(path.join(reports, 'vitest-postgres.json'));
  } else {
    console.log('\n(TEST_DATABASE_URL is not set: PostgreSQL runs skipped; CI sets it.)');
  }

  const playwright = (name, env) => {
    const report = path.join(reports, `playwright-${name}.json`);
    step(
      `browser tests on ${name} (Playwright, Chromium)`,
      'npx',
      ['playwright', 'test', '--reporter=list,json'],
      {
        ...env,
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      },
    );
    countPlaywright(report);
  };
  // The e2e server picks PostgreSQL when TEST_DATABASE_URL is set (scripts/e2e-server.mjs).
  playwright('PGlite', { TEST_DATABASE_URL: '' });
  if (TEST_DATABASE_URL) playwright('PostgreSQL', { TEST_DATABASE_URL });
}

fs.rmSync(reports, { recursive: true, force: true });
console.log('');
if (failedSteps.length > 0) console.log(`Failed steps: ${failedSteps.join(', ')}`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(failedSteps.length > 0 ? 1 : 0);

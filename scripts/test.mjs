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
// Each failed test, named again at the end: CI may keep only the run's last lines.
const failedTests = [];
// Browser tests that failed once and passed when run again (CI only, playwright.config.ts).
const flakyTests = [];

/** The first lines of a failure's message, without the terminal's colours. */
function firstLines(message = '', count = 6) {
  // eslint-disable-next-line no-control-regex
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  return plain.split('\n').slice(0, count).join('\n    ');
}

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

function countVitest(file, name) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  for (const result of report.testResults) {
    const where = `[${name}] ${path.relative(root, result.name)}`;
    for (const test of result.assertionResults) {
      if (test.status !== 'failed') continue;
      failedTests.push(`${where} > ${test.fullName}\n    ${firstLines(test.failureMessages[0])}`);
    }
    // A file that failed before its tests ran (an import, a hook).
    if (result.status === 'failed' && !result.assertionResults.some((t) => t.status === 'failed')) {
      failedTests.push(`${where}\n    ${firstLines(result.message)}`);
    }
  }
}

function failedSpecs(suite, name) {
  for (const spec of suite.specs ?? []) {
    const flaky = spec.tests.some((test) => test.status === 'flaky');
    if (spec.ok && !flaky) continue;
    const error = spec.tests.flatMap((test) => test.results).find((result) => result.error)?.error;
    const line = `[${name}] ${spec.file}:${spec.line} > ${spec.title}\n    ${firstLines(error?.message)}`;
    (spec.ok ? flakyTests : failedTests).push(line);
  }
  for (const child of suite.suites ?? []) failedSpecs(child, name);
}

function countPlaywright(file, name) {
  if (!fs.existsSync(file)) return;
  const { stats, suites, errors } = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const suite of suites) failedSpecs(suite, name);
  for (const error of errors ?? []) failedTests.push(`[${name}] ${firstLines(error.message)}`);
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
  countVitest(path.join(reports, 'vitest-pglite.json'), 'PGlite');

  if (TEST_DATABASE_URL) {
    step('API and unit tests on PostgreSQL', 'npx', vitestArgs('vitest-postgres.json'));
    countVitest(path.join(reports, 'vitest-postgres.json'), 'PostgreSQL');
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
    countPlaywright(report, name);
  };
  // The e2e server picks PostgreSQL when TEST_DATABASE_URL is set (scripts/e2e-server.mjs).
  playwright('PGlite', { TEST_DATABASE_URL: '' });
  if (TEST_DATABASE_URL) playwright('PostgreSQL', { TEST_DATABASE_URL });
}

fs.rmSync(reports, { recursive: true, force: true });
console.log('');
if (flakyTests.length > 0) {
  console.log(`Failed once, then passed (flaky: fix them):\n  ${flakyTests.join('\n  ')}\n`);
}
if (failedTests.length > 0) console.log(`Failed tests:\n  ${failedTests.join('\n  ')}\n`);
if (failedSteps.length > 0) console.log(`Failed steps: ${failedSteps.join(', ')}`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(failedSteps.length > 0 ? 1 : 0);

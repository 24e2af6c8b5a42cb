// `npm test`: typecheck, lint, build, the API tests whose subject is the database on PGlite and
// again on PostgreSQL (when TEST_DATABASE_URL is set), every other test once, the browser tests
// once and their smoke on the other database (decisions 023, 031). Prints each step's wall time,
// a table of steps at the end, and one closing "tests: N passed, N failed" line.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Debian's Chromium, installed here when it is missing and we may (root, or `sudo -n`). */
function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (fs.existsSync(chromium)) return true;
  const install = 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium';
  const asRoot = process.getuid?.() === 0;
  const canSudo = !asRoot && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (!process.env.CHROMIUM_PATH && (asRoot || canSudo)) {
    console.log(`Chromium is not at ${chromium}: installing Debian's package (${install}).`);
    const command = asRoot ? ['sh', ['-c', install]] : ['sudo', ['-n', 'sh', '-c', install]];
    spawnSync(command[0], command[1], { stdio: 'inherit' });
    if (fs.existsSync(chromium)) return true;
  }
  console.error(`
The browser tests need Chromium at ${chromium}, and it is not there.
Install Debian's package (no browser is downloaded by this project):

    sudo apt-get update && sudo apt-get install -y chromium

or point CHROMIUM_PATH at another Chromium or Chrome binary, then run npm test again.
`);
  return false;
}
if (!ensureChromium()) process.exit(1);

const runStarted = Date.now();
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Every test that ran (passed or failed), once however many databases it ran on. */
const distinct = new Set();
const steps = [];
// Each failed test, named again at the end: CI may keep only the run's last lines.
const failedTests = [];
/** Every test's own time, for the slowest ten named at the end: { name, ms }. */
const durations = [];
/**
 * Each step's budget, in seconds (decision 038): over it is a warning, not a failure (machines
 * vary). A group's steps share one budget: the server rounds, say, 360 s between them.
 */
const BUDGETS = [
  { group: 'typecheck + lint', seconds: 30, labels: ['typecheck', 'lint'], atOnce: true },
  { group: 'server rounds', seconds: 360, labels: ['API and unit tests', 'API tests on'] },
  { group: 'browser tests', seconds: 300, labels: ['browser tests'] },
  { group: 'browser smoke', seconds: 30, labels: ['browser smoke'] },
];
/** Where test apps write how long each took to start (apps/server/src/test/test-app.ts). */
const appStarts = path.join(reports, 'test-app-starts');
process.env.TEST_APP_STARTS_DIR = appStarts;

/** The first lines of a failure's message, without the terminal's colours. */
function firstLines(message = '', count = 6) {
  // eslint-disable-next-line no-control-regex
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  return plain.split('\n').slice(0, count).join('\n    ');
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs one step, timed; `count` reads its report into the totals and answers its counts. */
function step(label, command, args, { env = {}, count } = {}) {
  console.log(`\n=== ${label}`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const ms = Date.now() - started;
  const tests = count?.();
  const ok = result.status === 0;
  steps.push({ label, ms, ok, tests });
  console.log(`=== ${label}: ${ok ? 'ok' : 'FAILED'} in ${seconds(ms)}`);
  return ok;
}

/**
 * Runs steps at the same time (each needs one core and no other's output), and prints each one's
 * output whole, in order, once all have ended; each step's time is its own wall time.
 */
async function together(list) {
  const ended = await Promise.all(
    list.map(
      ([label, command, args]) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { cwd: root, env: process.env });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('close', (code) => resolve({ label, code, ms: Date.now() - started, output }));
        }),
    ),
  );
  for (const { label, code, ms, output } of ended) {
    console.log(`\n=== ${label} (at the same time as ${list.length - 1} other)`);
    process.stdout.write(Buffer.concat(output));
    steps.push({ label, ms, ok: code === 0 });
    console.log(`=== ${label}: ${code === 0 ? 'ok' : 'FAILED'} in ${seconds(ms)}`);
  }
  return ended.every(({ code }) => code === 0);
}

function countVitest(file, name) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  if (!fs.existsSync(file)) return counts;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  counts.passed = report.numPassedTests;
  counts.failed = report.numFailedTests;
  counts.skipped = report.numPendingTests + (report.numTodoTests ?? 0);
  for (const result of report.testResults) {
    const file = path.relative(root, result.name);
    const where = `[${name}] ${file}`;
    for (const test of result.assertionResults) {
      if (test.status === 'passed' || test.status === 'failed') {
        distinct.add(`${file} > ${test.fullName}`);
        durations.push({ name: `${where} > ${test.fullName}`, ms: test.duration ?? 0 });
      }
      if (test.status !== 'failed') continue;
      failedTests.push(`${where} > ${test.fullName}\n    ${firstLines(test.failureMessages[0])}`);
    }
    // A file that failed before its tests ran (an import, a hook).
    if (result.status === 'failed' && !result.assertionResults.some((t) => t.status === 'failed')) {
      failedTests.push(`${where}\n    ${firstLines(result.message)}`);
    }
  }
  return counts;
}

function playwrightSpecs(suite, name) {
  for (const spec of suite.specs ?? []) {
    // A spec's id stands for its file and titles: the same in the suite and in the smoke.
    const ran = spec.tests.some((test) => test.results.some((r) => r.status !== 'skipped'));
    if (ran) {
      distinct.add(`e2e ${spec.id}`);
      const ms = spec.tests.flatMap((test) => test.results).reduce((sum, r) => sum + r.duration, 0);
      durations.push({
        name: `[${name}] ${spec.file}:${spec.line} > ${spec.title}`,
        ms,
        browser: true,
      });
    }
    if (spec.ok) continue;
    const error = spec.tests.flatMap((test) => test.results).find((result) => result.error)?.error;
    failedTests.push(
      `[${name}] ${spec.file}:${spec.line} > ${spec.title}\n    ${firstLines(error?.message)}`,
    );
  }
  for (const child of suite.suites ?? []) playwrightSpecs(child, name);
}

function countPlaywright(file, name) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  if (!fs.existsSync(file)) return counts;
  const { stats, suites, errors } = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const suite of suites) playwrightSpecs(suite, name);
  for (const error of errors ?? []) failedTests.push(`[${name}] ${firstLines(error.message)}`);
  // No retries (playwright.config.ts): a test that fails once fails the run, and is fixed.
  counts.passed = stats.expected;
  counts.failed = stats.unexpected;
  counts.skipped = stats.skipped;
  return counts;
}

function addToTotals(counts) {
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  return counts;
}

// Typecheck, ESLint and Prettier keep their caches in node_modules/.cache between runs in one
// checkout; a fresh clone has none and checks everything. They run at once (decision 038).
const ok =
  (await together([
    ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
    // `npm run lint` in two halves, so that three processes share the two cores.
    ['lint (oxlint)', 'npx', ['oxlint']],
    ['lint (ESLint, Prettier)', 'npm', ['run', '--silent', 'lint:boundaries-and-format']],
  ])) && step('build', 'npm', ['run', '--silent', 'build']);

if (ok) {
  const { TEST_DATABASE_URL } = process.env;
  const vitest = (label, name, args, env) => {
    const report = path.join(reports, `${name}.json`);
    step(
      label,
      'npx',
      [
        'vitest',
        'run',
        ...args,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${report}`,
      ],
      { env, count: () => addToTotals(countVitest(report, name)) },
    );
  };
  // `api` runs on both databases; `api-once` (the database is not what it tests) on PostgreSQL
  // when there is one; `unit` and `web` (components in happy-dom) need no database and run in
  // the PGlite round (vitest.config.ts, decisions 031, 038).
  const pgliteProjects = TEST_DATABASE_URL
    ? ['api', 'unit', 'web']
    : ['api', 'api-once', 'unit', 'web'];
  vitest(
    'API and unit tests on embedded PGlite',
    'PGlite',
    pgliteProjects.flatMap((project) => ['--project', project]),
    { TEST_DATABASE_URL: '' },
  );
  if (TEST_DATABASE_URL) {
    vitest(
      'API tests on PostgreSQL (and those run once)',
      'PostgreSQL',
      ['--project', 'api', '--project', 'api-once'],
      { TEST_DATABASE_URL },
    );
  } else {
    console.log('\n(TEST_DATABASE_URL is not set: PostgreSQL runs skipped; CI sets it.)');
  }

  const playwright = (label, name, args, env) => {
    const report = path.join(reports, `playwright-${name}.json`);
    step(label, 'npx', ['playwright', 'test', '--reporter=list,json', ...args], {
      env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
      count: () => addToTotals(countPlaywright(report, name)),
    });
  };
  // The whole browser suite once, on PostgreSQL when there is one (what production runs on), and
  // the smoke (smoke.spec.ts: npm start's path) on the other database. The e2e server picks
  // PostgreSQL when TEST_DATABASE_URL is set (scripts/e2e-server.mjs).
  if (TEST_DATABASE_URL) {
    playwright('browser tests on PostgreSQL (Playwright, Chromium)', 'PostgreSQL', [], {
      TEST_DATABASE_URL,
    });
    playwright('browser smoke on embedded PGlite', 'PGlite', ['smoke.spec.ts'], {
      TEST_DATABASE_URL: '',
    });
  } else {
    playwright('browser tests on embedded PGlite (Playwright, Chromium)', 'PGlite', [], {
      TEST_DATABASE_URL: '',
    });
  }
}

/** The middle of some numbers (the upper one of the two middles), 0 for none. */
function median(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** How long each test app took to start, per round: the median and the count. */
function appStartMedians() {
  if (!fs.existsSync(appStarts)) return [];
  return fs.readdirSync(appStarts).map((file) => {
    const ms = fs
      .readFileSync(path.join(appStarts, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(Number);
    return { round: file, median: median(ms), count: ms.length };
  });
}
const starts = appStartMedians();
fs.rmSync(reports, { recursive: true, force: true });

const width = Math.max(...steps.map((s) => s.label.length));
// The run's wall time: steps that ran at once count once.
const total = Date.now() - runStarted;
console.log('\nStep times:');
for (const s of steps) {
  const tests = s.tests
    ? `  ${s.tests.passed} passed, ${s.tests.failed} failed, ${s.tests.skipped} skipped`
    : '';
  console.log(
    `  ${s.label.padEnd(width)}  ${seconds(s.ms).padStart(8)}  ${s.ok ? 'ok    ' : 'FAILED'}${tests}`,
  );
}
console.log(`  ${'all steps'.padEnd(width)}  ${seconds(total).padStart(8)}`);
console.log(`  distinct tests run: ${distinct.size} (a test run on two databases counts once)`);
for (const { round, median, count } of starts) {
  console.log(`  test apps started (${round}): median ${median} ms of ${count} (budget 150 ms)`);
}

console.log('\nBudgets (over budget is a warning: machines vary):');
const overBudget = [];
for (const { group, seconds: budget, labels, atOnce } of BUDGETS) {
  const mine = steps.filter((s) => labels.some((label) => s.label.startsWith(label)));
  if (mine.length === 0) continue;
  // Steps run at the same time take the longest one's time; steps in turn add up.
  const ms = atOnce ? Math.max(...mine.map((s) => s.ms)) : mine.reduce((sum, s) => sum + s.ms, 0);
  const over = ms > budget * 1000;
  if (over) overBudget.push(group);
  console.log(
    `  ${group.padEnd(18)} ${seconds(ms).padStart(8)} of ${`${budget} s`.padStart(5)}${over ? '  WARNING: over budget' : ''}`,
  );
}
if (overBudget.length > 0) {
  console.log(`  warning: over budget: ${overBudget.join(', ')} (docs/testing.md says what to do)`);
}
const browserMs = durations.filter((d) => d.browser).map((d) => d.ms);
if (browserMs.length > 0) {
  console.log(
    `  a browser test takes ${seconds(median(browserMs))} (median of ${browserMs.length}; budget 2.5 s)`,
  );
}
console.log('\nSlowest tests:');
for (const { name, ms } of durations.sort((a, b) => b.ms - a.ms).slice(0, 10)) {
  console.log(`  ${seconds(ms).padStart(7)}  ${name}`);
}
// CI runs `node scripts/audit.mjs` before this; its verdict ("npm audit: NOT CHECKED (...)" when
// the audit service could not be reached) is repeated here, where a reader of the run looks.
const auditVerdict = path.join(root, 'node_modules/.cache/npm-audit-verdict.txt');
if (fs.existsSync(auditVerdict)) {
  const { mtime } = fs.statSync(auditVerdict);
  const stale = Date.now() - mtime.getTime() > 24 * 3600_000;
  const line = fs.readFileSync(auditVerdict, 'utf8').trim();
  console.log(`  ${line}${stale ? ` (as of ${mtime.toISOString().slice(0, 10)})` : ''}`);
}

const failedSteps = steps.filter((s) => !s.ok).map((s) => s.label);
console.log('');
if (failedTests.length > 0) console.log(`Failed tests:\n  ${failedTests.join('\n  ')}\n`);
if (failedSteps.length > 0) console.log(`Failed steps: ${failedSteps.join(', ')}`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(failedSteps.length > 0 ? 1 : 0);

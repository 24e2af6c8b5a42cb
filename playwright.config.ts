import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3199);
const baseURL = `http://127.0.0.1:${port}`;

/** Browser tests drive Debian's Chromium; nothing is downloaded. */
export default defineConfig({
  testDir: 'apps/web/e2e',
  // Two files at a time, each file's tests in order: a browser test spends half its time
  // waiting on the server, so two fill a 2-core machine (94 tests: 586 s against 824 s alone).
  fullyParallel: false,
  workers: 2,
  // No retries: a test that fails once fails the run, and a flaky test is a bug to fix.
  retries: 0,
  // Limits catch a hang, not slowness (benchmarks measure speed): CI runs on a 2-core machine that
  // can be twice as slow when busy, and a test of 20 s there or a page's first chunk must not fail
  // a run. A green run takes no longer for them.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // As a person who asked for less motion sees it (index.css cuts animations to 0.01 ms): a
    // toast sliding in could otherwise move from under a click that Playwright aimed at it.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `${baseURL}/api/ready`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    // Saved-search alerts go out within a second rather than 15 (keep-track.spec.ts waits for one).
    // Behind a "proxy", so a test can sign in from an address of its own (X-Forwarded-For) and
    // fill that address's sign-in limit without holding up the other tests.
    // Every test signs people up from this one machine: sign-up's limits per IP are raised, and
    // so is the live-hold limit per IP (the tests leave held cars behind them). The demo buyer
    // searches all through the suite, faster than a person: the search budget is raised too, and
    // so is the seller profiles' minute.
    env: {
      PORT: String(port),
      ALERT_INTERVAL_MS: '1000',
      // A view reaches a seller's figures at the next flush: soon, for the tests that wait on it.
      VIEW_FLUSH_SECONDS: '1',
      TRUST_PROXY: 'true',
      SIGN_UP_LIMIT_PER_IP: '100000',
      SIGN_UP_LIMIT_PER_IP_PER_DAY: '100000',
      HOLD_LIMIT_PER_IP: '100000',
      SEARCH_LIMIT_PER_MINUTE: '100000',
      SEARCH_CONCURRENCY_PER_PERSON: '1000',
      SELLER_PROFILE_LIMIT_PER_MINUTE: '100000',
    },
  },
});

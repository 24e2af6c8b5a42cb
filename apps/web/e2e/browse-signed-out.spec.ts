import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { SearchResult } from '@carmarket/shared';
import { expect, test } from '@playwright/test';

import {
  expectNoAxeViolationsWideAndNarrow,
  mainNav,
  NEW_PASSWORD,
  uniqueEmail,
  waitForHydration,
} from './site';

/**
 * Browsing signed out (BROWSE_SIGNED_OUT, decision 028) needs a server started with it: the
 * suite's own server keeps the spec's rule, so this file starts a second one, the same production
 * bundle on a fresh embedded database of its own, one port up.
 */
const root = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const port = Number(process.env.E2E_PORT ?? 3199) + 1;
const OPEN_SITE = `http://127.0.0.1:${port}`;

let server: ChildProcess | undefined;
let dataDir: string;

test.beforeAll(async () => {
  // A fresh database is migrated and seeded before the server answers.
  test.setTimeout(120_000);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-e2e-open-'));
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  server = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    env: {
      ...env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      BROWSE_SIGNED_OUT: 'true',
      SEED_DEMO_CARS: 'small',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await expect
    .poll(async () => (await fetch(`${OPEN_SITE}/api/ready`).catch(() => undefined))?.status, {
      timeout: 110_000,
    })
    .toBe(200);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
  }
  await fs.rm(dataDir, { recursive: true, force: true });
});

test.use({ baseURL: OPEN_SITE });

test('a visitor searches, opens a car, presses Save, registers and is back on the car, saved', async ({
  page,
}) => {
  test.setTimeout(60_000);
  // A make the demo cars have, to search for as a visitor would type it.
  const [first] = (
    (await (await page.request.get('/api/listings?sort=newest&limit=1')).json()) as SearchResult
  ).items;
  const make = first!.make!;

  await page.goto('/');
  await page.getByRole('searchbox', { name: 'Search cars' }).fill(make);
  await page.getByRole('searchbox', { name: 'Search cars' }).press('Enter');
  await expect(page).toHaveURL(/\/cars\?q=/);
  // Signed out, with Login in the header as on every page.
  await expect(mainNav(page).getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
  const details = page.getByRole('link', { name: /^Details of the / }).first();
  const name = (await details.textContent())!.replace(/^Details of the /, '');
  await details.click();

  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const carUrl = new URL(page.url()).pathname;
  await waitForHydration(page);
  await page.getByRole('button', { name: /^Save / }).click();
  const dialog = page.getByRole('dialog', { name: 'Save this car' });
  await expect(dialog).toBeVisible();
  // The car page as a visitor sees it, with its sign-in question open: only this server has it.
  await expectNoAxeViolationsWideAndNarrow(page);
  await dialog.getByRole('link', { name: 'Create an account' }).click();

  const email = uniqueEmail('visitor');
  await page.getByLabel('Name').fill('Vic Visitor');
  await page.getByLabel('Account type').selectOption('Buyer');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();

  // Back on the same car, which is saved, and the address no longer asks for it.
  await expect(page).toHaveURL(carUrl);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Save / })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const saved = (await (await page.request.get('/api/saved-cars')).json()) as {
    listingId: string;
  }[];
  expect(saved.map((car) => car.listingId)).toContain(carUrl.split('/').pop());
});

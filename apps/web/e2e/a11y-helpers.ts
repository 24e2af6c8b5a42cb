import type { AdminUser } from '@carmarket/shared';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import { expectNoAxeViolationsWideAndNarrow, otherSession, signInApi } from './site';

/*
 * Accessibility, in the a11y-*.spec.ts files: every page state the journeys once checked with
 * axe, each checked there once, at 1280 px and at 390 px. A state is reached as its journey
 * reached it: its data through the API, a page state (an open dialog, a form with errors, a
 * toast) through the page. Each test is one person (the demo accounts' test two), signed in
 * once, going from state to state in one page. A new page state gets its scan in the a11y file
 * of whose pages it is (signed out, a buyer's account, a buyer's orders, a seller's and an
 * admin's), not in its journey. The files run in parallel: each test makes its own people and
 * cars.
 */

/**
 * Where the a11y files' cars go, away from payments.spec.ts's newest Electric cars; each state
 * finds its own cars by name.
 */
export const CATEGORY = 'Microbus';

/** Each test reaches and checks up to a dozen states: a minute on a machine busy with others. */
export const A11Y_TEST_TIMEOUT = 180_000;

/** Reaches a page state, then checks it with axe on a wide screen and on a phone. */
export async function state(page: Page, name: string, reach: () => Promise<void>) {
  await test.step(name, async () => {
    await reach();
    await expectNoAxeViolationsWideAndNarrow(page);
  });
}

/** Something for test names and car names that no other run has (site.ts's, for the journeys too). */
export { uniqueMarker } from './site';

/** The id of the account with this email, as an admin signed in through `admin` finds it. */
export async function userIdApi(admin: APIRequestContext, email: string): Promise<string> {
  const response = await admin.get(`/api/all/user?q=${encodeURIComponent(email)}`);
  expect(response.ok(), await response.text()).toBe(true);
  const user = ((await response.json()) as AdminUser[]).find((found) => found.email === email);
  if (!user) throw new Error(`no account ${email}`);
  return user._id;
}

/** A session of its own, signed in as the demo admin. */
export async function adminSession(playwright: Parameters<typeof otherSession>[0]) {
  const admin = await otherSession(playwright);
  await signInApi(admin, 'admin@demo.local');
  return admin;
}

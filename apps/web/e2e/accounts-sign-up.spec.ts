import { expect, test, type Page } from '@playwright/test';

import {
  dashboardNav,
  mainNav,
  NEW_PASSWORD,
  registerThroughPage,
  signInThroughPage,
  uniqueEmail,
  waitForHydration,
} from './site';

/** An account made by the first step of sign-up only, signed in in the page's browser. */
async function signUpWithoutRole(page: Page) {
  const response = await page.request.post('/api/auth/sign-up/email', {
    data: { name: 'Half Registered', email: uniqueEmail('half'), password: NEW_PASSWORD },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

test.describe('signing up', () => {
  test('a new Seller registers through the page and gets the seller dashboard', async ({
    page,
  }) => {
    const email = await registerThroughPage(page, 'Seller');

    const nav = mainNav(page);
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Sign in', exact: true })).toHaveCount(0);

    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Test Seller');
    await expect(page.getByRole('main')).toContainText(email);
    await expect(page.getByRole('main')).toContainText('Seller');
    await expect(dashboardNav(page).getByRole('link', { name: 'Add a car' })).toBeVisible();
  });

  test('a new Buyer registers, signs out and signs in again', async ({ page }) => {
    const email = await registerThroughPage(page, 'Buyer');

    await mainNav(page).getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByText('You are signed out.')).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();

    await mainNav(page).getByRole('link', { name: 'Sign in', exact: true }).click();
    await signInThroughPage(page, email, NEW_PASSWORD);
    await expect(page).toHaveURL('/');
    await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
    await expect(dashboardNav(page).getByRole('link', { name: 'My Orders' })).toBeVisible();
  });

  test('a click on the drawn dashboard before its page’s code arrives is acted on', async ({
    page,
  }) => {
    await signUpWithoutRole(page);
    // The dashboard's page code comes late: the server-drawn page shows, its button is pressed.
    await page.route(/\/assets\/home-[\w-]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto('/dashboard', { waitUntil: 'commit' });
    const card = page.getByRole('region', { name: 'Choose your account type' });
    await card.getByRole('button', { name: 'Save account type' }).click();
    await expect(card.getByRole('alert')).toHaveText('Please choose Seller or Buyer.');
  });

  test('an account without a type chooses one on the dashboard', async ({ page }) => {
    // Signed up, but the second step (POST /api/user) never ran: the account has no role.
    await signUpWithoutRole(page);
    await page.goto('/dashboard');
    const card = page.getByRole('region', { name: 'Choose your account type' });
    await expect(card).toBeVisible();
    await expect(dashboardNav(page).getByRole('link', { name: 'My Orders' })).toHaveCount(0);

    // Saving without a choice is refused in choose-role-card.test.tsx. The radio is checked once
    // the app has taken over the drawn page (a click before that is replayed, but check() wants
    // to see the change at once).
    await waitForHydration(page);
    await card.getByRole('radio', { name: /Seller/ }).check();
    await card.getByRole('button', { name: 'Save account type' }).click();
    await expect(page.getByText('Your account is now a Seller account.')).toBeVisible();
    await expect(card).toBeHidden();
    await expect(dashboardNav(page).getByRole('link', { name: 'Add a car' })).toBeVisible();
    // The overview follows at once, with a seller's figures (no reload).
    await expect(page.getByRole('table', { name: 'Your cars by status' })).toBeAttached();
  });

  test('back from Google, a first sign-in becomes a Buyer account', async ({ page }) => {
    // Google itself is not set up in tests; an account without a role stands in for one that
    // Google has just created, and the dashboard finishes the sign-in as it would.
    await signUpWithoutRole(page);
    await page.goto('/dashboard?google=1');
    await expect(page.getByText('You are signed in with Google.')).toBeVisible();
    await expect(page).toHaveURL('/dashboard');
    await expect(dashboardNav(page).getByRole('link', { name: 'My Orders' })).toBeVisible();
  });
});

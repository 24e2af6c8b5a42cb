import { expect, test, type Page } from '@playwright/test';

import {
  dashboardNav,
  fromSite,
  mainNav,
  NEW_PASSWORD,
  otherSession,
  registerThroughPage,
  signInApi,
  signInThroughPage,
  SITE,
  uniqueEmail,
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
    await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0);

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
    await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();

    await mainNav(page).getByRole('link', { name: 'Login' }).click();
    await signInThroughPage(page, email, NEW_PASSWORD);
    await expect(page).toHaveURL('/');
    await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
    await expect(dashboardNav(page).getByRole('link', { name: 'My Orders' })).toBeVisible();
  });

  test('the register form explains what is missing, beside each field', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('button', { name: 'Create account' }).click();

    const name = page.getByLabel('Name');
    await expect(name).toBeFocused();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription(/Name is required/);
    await expect(page.getByLabel('Account type')).toHaveAccessibleDescription(
      /Please choose Seller or Buyer/,
    );

    // An email that already has an account is refused by the server, beside the email field.
    await page.getByLabel('Name').fill('Copy Seller');
    await page.getByLabel('Account type').selectOption('Seller');
    await page.getByLabel('Email').fill('seller@demo.local');
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription(/already exists/);
    await expect(page.getByLabel('Email')).toBeFocused();
  });

  test('Continue with Google is not offered when the server has no Google sign-in (rough edge 4)', async ({
    page,
  }) => {
    // The test server has no Google credentials: once it has said so, there is no button.
    for (const pathname of ['/login', '/register']) {
      const options = page.waitForResponse('**/api/sign-in-options');
      await page.goto(pathname);
      expect(await (await options).json()).toMatchObject({ google: false });
      await expect(page.getByLabel('Email')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Continue with Google' })).toHaveCount(0);
      await expect(page.getByText('or', { exact: true })).toHaveCount(0);
    }
  });

  test('Continue with Google is offered when the server has Google sign-in, and keeps the way back (rough edge 4)', async ({
    page,
  }) => {
    // A server with credentials (its answer stood in for here; the server's own tests cover the
    // real one) gets the button, and Google is asked to send people back to where they were.
    await page.route('**/api/sign-in-options', (route) =>
      route.fulfill({ json: { google: true } }),
    );
    let started: Record<string, unknown> | undefined;
    await page.route('**/api/auth/sign-in/social', async (route) => {
      started = route.request().postDataJSON() as Record<string, unknown>;
      await route.fulfill({ json: { url: `${SITE}/blog`, redirect: true } });
    });
    for (const pathname of ['/register', '/login']) {
      const options = page.waitForResponse('**/api/sign-in-options');
      await page.goto(`${pathname}?next=/blog/how-to-inspect-a-used-car`);
      expect(await (await options).json()).toEqual({ google: true });
      await expect(page.getByText('or', { exact: true })).toBeVisible();
      if (pathname === '/register') {
        await expect(
          page.getByRole('button', { name: 'Continue with Google' }),
        ).toHaveAccessibleDescription('A new account made with Google is a Buyer account.');
      }
    }
    const google = page.getByRole('button', { name: 'Continue with Google' });
    await expect(google).toBeVisible();
    await google.click();
    await expect(page).toHaveURL('/blog');
    expect(started).toMatchObject({
      provider: 'google',
      callbackURL: '/dashboard?google=1&next=%2Fblog%2Fhow-to-inspect-a-used-car',
      errorCallbackURL: '/login?next=/blog/how-to-inspect-a-used-car',
    });
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

    await card.getByRole('button', { name: 'Save account type' }).click();
    await expect(card.getByRole('alert')).toHaveText('Please choose Seller or Buyer.');
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

  test('a deleted account says until when its address is held, when registering and when signing in (rough edge 13)', async ({
    page,
    playwright,
  }) => {
    const person = await playwright.request.newContext({
      baseURL: SITE,
      extraHTTPHeaders: fromSite,
    });
    const email = uniqueEmail('gone');
    const signUp = await person.post('/api/auth/sign-up/email', {
      data: { name: 'Gone Person', email, password: NEW_PASSWORD },
    });
    expect(signUp.ok(), await signUp.text()).toBe(true);
    await person.dispose();
    const admin = await otherSession(playwright);
    await signInApi(admin, 'admin@demo.local');
    const users = (await (
      await admin.get(`/api/all/user?q=${encodeURIComponent(email)}`)
    ).json()) as { _id: string; email: string }[];
    const gone = users.find((candidate) => candidate.email === email);
    expect((await admin.delete(`/api/user/remove/${gone?._id}`)).ok()).toBe(true);
    await admin.dispose();

    const longDate = (date: Date) =>
      date.toLocaleDateString('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      });
    const today = new Date();
    const freeFrom = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 31),
    );
    const when = `deleted on ${longDate(today)}`;

    await page.goto('/register');
    await page.getByLabel('Name').fill('Gone Person');
    await page.getByLabel('Account type').selectOption('Buyer');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription(
      `An account with this email was ${when}. The address can be used for a new account from ${longDate(freeFrom)}.`,
    );

    await page.goto('/login');
    await signInThroughPage(page, email, NEW_PASSWORD);
    await expect(page.getByRole('alert')).toHaveText(
      `This account was ${when}. Its email address can be used for a new account from ${longDate(freeFrom)}.`,
    );
  });
});

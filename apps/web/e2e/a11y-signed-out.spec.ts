import { expect, test, type Page } from '@playwright/test';

import { adminSession, A11Y_TEST_TIMEOUT, state, uniqueMarker, userIdApi } from './a11y-helpers';
import { otherSession, signUpBuyerApi, waitForHydration } from './site';

/* Accessibility of the pages a person sees signed out (how these files work: a11y-helpers.ts). */

const NEW_PASSWORD = 'a long enough password 2026';

async function signInThroughPage(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function fillRegisterForm(page: Page, email: string) {
  await page.getByLabel('Name').fill('Test Person');
  await page.getByLabel('Account type').selectOption('Buyer');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
}

test.describe('accessibility: signed out', () => {
  test.describe.configure({ timeout: A11Y_TEST_TIMEOUT });

  test('signed out: the home page, the blog, signing in and registering', async ({
    page,
    playwright,
  }) => {
    const post = '/blog/how-to-inspect-a-used-car';
    await state(page, 'the home page', async () => {
      await page.goto('/');
      // The spec's three categories and the demo's Hybrid car.
      await expect(page.getByTestId('category-tile').filter({ hasText: 'Hybrid car' })).toHaveCount(
        1,
      );
    });
    await state(page, 'the blog', async () => {
      await page.goto('/blog');
      await expect(page.getByRole('link', { name: 'Read all four answers' })).toBeVisible();
    });
    await state(page, 'the blog’s Q&A', async () => {
      await page.goto('/blog/front-end-questions-answered');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/four front-end questions/i);
    });
    await state(page, 'a blog post, taken over by the app', async () => {
      await page.goto(post);
      await waitForHydration(page);
    });
    for (const pathname of ['/login', '/register']) {
      await state(page, `${pathname}, without Continue with Google`, async () => {
        const options = page.waitForResponse('**/api/sign-in-options');
        await page.goto(pathname);
        expect(await (await options).json()).toMatchObject({ google: false });
        await expect(page.getByLabel('Email')).toBeVisible();
      });
    }
    await state(page, 'registering on the way back to a blog post', async () => {
      await page.goto(`/register?next=${post}`);
      await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toHaveAttribute(
        'href',
        `/login?next=${post}`,
      );
    });
    await state(page, 'the register form, saying what is missing', async () => {
      await page.goto('/register');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByLabel('Name')).toHaveAccessibleDescription(/Name is required/);
    });
    // An address with an account is answered as a new one, with no session (decision 044).
    await state(page, 'the register form, saying to check the mail', async () => {
      await page.goto('/register');
      await fillRegisterForm(page, 'seller@demo.local');
      await expect(page.getByRole('status').filter({ hasText: 'Check your mail' })).toBeVisible();
    });
    await state(page, 'the sign-in form, after a wrong password', async () => {
      await page.goto('/login');
      await signInThroughPage(page, `nobody-${uniqueMarker()}@example.com`, 'not the password');
      await expect(page.getByRole('alert')).toHaveText(
        'That email and password do not match an account.',
      );
    });
    // A server with Google sign-in (its answer stood in for, as in accounts-sign-up.spec.ts).
    await page.route('**/api/sign-in-options', (route) =>
      route.fulfill({ json: { google: true } }),
    );
    await state(page, 'the sign-in page, offering Continue with Google', async () => {
      await page.goto(`/login?next=${post}`);
      await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    });
    await page.unroute('**/api/sign-in-options');

    const someone = await otherSession(playwright);
    const { email } = await signUpBuyerApi(someone, 'Lin Link');
    await someone.dispose();
    await state(page, 'the sign-in page, saying a sign-in link is on its way', async () => {
      await page.goto('/login?next=/dashboard/orders');
      await waitForHydration(page);
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Email me a sign-in link instead' }).click();
      await page.getByRole('button', { name: 'Email me a sign-in link', exact: true }).click();
      await expect(page.getByText(/a sign-in link is on its way/)).toBeVisible();
    });

    // An account an admin deleted: its address is held for a while.
    const person = await otherSession(playwright);
    const gone = await signUpBuyerApi(person, 'Gone Person');
    await person.dispose();
    const admin = await adminSession(playwright);
    const removed = await admin.delete(`/api/user/remove/${await userIdApi(admin, gone.email)}`);
    expect(removed.ok(), await removed.text()).toBe(true);
    await admin.dispose();
    // Registering with its address says to check the mail, as for any taken address (decision
    // 044): the dates go to the address only. Signing in with its password says them.
    await state(page, 'the sign-in form, saying the account was deleted', async () => {
      await page.goto('/login');
      await signInThroughPage(page, gone.email, gone.password);
      await expect(page.getByRole('alert')).toHaveText(/^This account was deleted on/);
    });
  });
});

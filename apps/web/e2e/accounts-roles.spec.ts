import { expect, test, type Page } from '@playwright/test';

import { dashboardNav, signInApi } from './site';

/**
 * Signed in by the API (the sign-in form has its own tests in accounts-sign-in.spec.ts), in the
 * page's browser. Which links each role's menu holds is menu.test.ts's; which one is marked as
 * the page shown is dashboard-menu.test.tsx's. Here each role reaches its pages.
 */
async function signInAs(page: Page, email: string) {
  await signInApi(page.request, email);
}

/** Opens the menu's `name` link, and its page says so in its heading. */
async function openFromMenu(page: Page, name: string, heading: string | RegExp = name) {
  await dashboardNav(page).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
}

test.describe('what each account type sees in the dashboard', () => {
  test('a buyer reaches My Orders and My account, and no seller or admin pages', async ({
    page,
  }) => {
    await signInAs(page, 'buyer@demo.local');
    await page.goto('/dashboard');
    const menu = dashboardNav(page);
    await expect(menu.getByRole('link', { name: 'Add a car' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'All Users' })).toHaveCount(0);
    await openFromMenu(page, 'My Orders');
    await expect(page).toHaveURL('/dashboard/orders');
    await openFromMenu(page, 'My account');

    // An admin page, opened by its address, says it is not for this account type.
    await page.goto('/dashboard/allUser');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This page is for administrators',
    );
    await expect(page.getByRole('main')).toContainText('Not for your account type');
    await page.getByRole('link', { name: 'Back to your dashboard' }).click();
    await expect(page).toHaveURL('/dashboard');

    // The spec's short addresses open the dashboard pages.
    await page.goto('/orders');
    await expect(page).toHaveURL('/dashboard/orders');
    await page.goto('/product');
    await expect(page).toHaveURL('/dashboard/add-product');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This page is for Seller accounts',
    );
  });

  test('a seller reaches Add a car, My cars and My account, and no My Orders', async ({ page }) => {
    await signInAs(page, 'seller@demo.local');
    await page.goto('/dashboard');
    await expect(dashboardNav(page).getByRole('link', { name: 'My Orders' })).toHaveCount(0);
    await openFromMenu(page, 'Add a car');
    await openFromMenu(page, 'My cars');
    await expect(page).toHaveURL('/dashboard/my-products');
    await openFromMenu(page, 'My account');
  });

  test('an admin reaches the user lists, the seller and buyer pages and My account', async ({
    page,
  }) => {
    await signInAs(page, 'admin@demo.local');
    await page.goto('/dashboard');
    const menu = dashboardNav(page);
    for (const name of ['All Users', 'All Buyers', 'Add a car', 'My Orders']) {
      await expect(menu.getByRole('link', { name })).toBeVisible();
    }
    await menu.getByRole('link', { name: 'All Sellers' }).click();
    await expect(page).toHaveURL('/dashboard/allUser?role=Seller');
    await expect(menu.getByRole('link', { name: 'All Sellers' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await openFromMenu(page, 'My account');
  });

  test('a signed-out visit to the dashboard goes to sign in', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/login?next=/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to CarMarket');
  });

  test('on a phone the dashboard menu opens with a button and closes with Escape', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAs(page, 'seller@demo.local');
    await page.goto('/dashboard');

    const open = page.getByRole('button', { name: 'Dashboard menu', exact: true });
    const menuLink = dashboardNav(page).getByRole('link', { name: 'My cars' });
    await expect(menuLink).toBeHidden();
    await open.click();
    await expect(open).toHaveAttribute('aria-expanded', 'true');
    await expect(menuLink).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close the dashboard menu' })).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(menuLink).toBeHidden();
    await expect(open).toBeFocused();

    await open.click();
    await menuLink.click();
    await expect(page).toHaveURL('/dashboard/my-products');
    await expect(menuLink).toBeHidden();

    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

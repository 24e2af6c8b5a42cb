import { expect, test, type Page } from '@playwright/test';

import { dashboardNav, signInThroughPage } from './site';

async function signInAs(page: Page, email: string) {
  await page.goto('/login');
  await signInThroughPage(page, email);
  await expect(page).toHaveURL('/');
  // Attached rather than visible: on a phone the navbar's links wait behind its menu button.
  await expect(page.locator('#site-menu a[href="/dashboard"]')).toBeAttached();
}

test.describe('what each account type sees in the dashboard', () => {
  test('a buyer sees My Orders and no seller pages', async ({ page }) => {
    await signInAs(page, 'buyer@demo.local');
    await page.goto('/dashboard');
    const menu = dashboardNav(page);
    await expect(menu.getByRole('link', { name: 'My Orders' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Add a car' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'All Users' })).toHaveCount(0);
  });

  test('a seller sees Add a car and My cars, and no My Orders', async ({ page }) => {
    await signInAs(page, 'seller@demo.local');
    await page.goto('/dashboard');
    const menu = dashboardNav(page);
    await expect(menu.getByRole('link', { name: 'Add a car' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'My cars' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'My Orders' })).toHaveCount(0);
  });

  test('an admin sees the user lists and the seller and buyer pages', async ({ page }) => {
    await signInAs(page, 'admin@demo.local');
    await page.goto('/dashboard');
    const menu = dashboardNav(page);
    for (const name of ['All Users', 'All Sellers', 'All Buyers', 'Add a car', 'My Orders']) {
      await expect(menu.getByRole('link', { name })).toBeVisible();
    }
    await menu.getByRole('link', { name: 'All Sellers' }).click();
    await expect(page).toHaveURL('/dashboard/allUser?role=Seller');
    await expect(menu.getByRole('link', { name: 'All Sellers' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(menu.getByRole('link', { name: 'All Users' })).not.toHaveAttribute('aria-current');
  });

  test('a signed-out visit to the dashboard goes to sign in', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/login?next=/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to CarMarket');
  });

  test('a buyer opening an admin page reads that it is not for their account type', async ({
    page,
  }) => {
    await signInAs(page, 'buyer@demo.local');
    await page.goto('/dashboard/allUser');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This page is for administrators',
    );
    await expect(page.getByRole('main')).toContainText('Not for your account type');
    await page.getByRole('link', { name: 'Back to your dashboard' }).click();
    await expect(page).toHaveURL('/dashboard');
  });

  test("the spec's short addresses open the dashboard pages", async ({ page }) => {
    await signInAs(page, 'buyer@demo.local');
    await page.goto('/orders');
    await expect(page).toHaveURL('/dashboard/orders');
    await page.goto('/product');
    await expect(page).toHaveURL('/dashboard/add-product');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This page is for Seller accounts',
    );
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

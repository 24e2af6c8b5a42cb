import type { CategoryDetail, CategorySummary } from '@carmarket/shared';
import { expect, test, type Page } from '@playwright/test';

import { otherSession, signUpBuyerApi } from './site';

const DEMO_PASSWORD = 'demo-drive-2026';
const SELLER_EMAIL = 'seller@demo.local';

async function signInAsAdmin(page: Page) {
  const response = await page.request.post('/api/auth/sign-in/email', {
    data: { email: 'admin@demo.local', password: DEMO_PASSWORD },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** The demo seller's cars in a category, as the API shows them. */
async function demoSellerCars(page: Page) {
  const categories = (await (await page.request.get('/api/category')).json()) as CategorySummary[];
  const category = categories[0]!;
  const detail = (await (
    await page.request.get(`/api/category/${category._id}`)
  ).json()) as CategoryDetail;
  return { category, cars: detail.listings.filter((car) => car.seller === 'Riverside Motors') };
}

test.describe('administration', () => {
  test('the admin verifies the demo seller, whose cars then carry the badge', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/dashboard/allUser?role=Seller');
    await expect(page.getByRole('heading', { level: 1, name: 'All Sellers' })).toBeVisible();

    await page.getByLabel('Search by name or email').fill(SELLER_EMAIL);
    await expect(page).toHaveURL(/q=seller%40demo\.local/);
    const row = page.getByTestId('user-row').filter({ hasText: SELLER_EMAIL });
    await expect(row).toHaveCount(1);
    await expect(page.getByTestId('user-row')).toHaveCount(1);

    await row.getByRole('button', { name: 'Verify Riverside Motors' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'User verified' })).toBeVisible();
    await expect(row.getByText('Verified', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: /^Verify/ })).toHaveCount(0);

    // The badge on their cars: through the API, and on the category page.
    const { category, cars } = await demoSellerCars(page);
    expect(cars.length).toBeGreaterThan(0);
    expect(cars.every((car) => car.sellerVerified)).toBe(true);
    await page.goto(`/category/${category._id}`);
    const card = page.getByTestId('listing-card').filter({ hasText: cars[0]!.name });
    await expect(card.getByText('Verified seller')).toBeVisible();

    // The audit log records it.
    await page.goto('/dashboard/audit');
    await expect(
      page.getByTestId('audit-row').filter({ hasText: 'Verified a seller' }).filter({
        hasText: SELLER_EMAIL,
      }),
    ).toHaveCount(1);
  });

  test('the admin deletes a buyer, who is signed out and cannot sign in again', async ({
    page,
    playwright,
  }) => {
    // A page's requests carry its Origin; auth calls with a cookie and no Origin are refused.
    const buyerSession = await otherSession(playwright);
    const buyer = await signUpBuyerApi(buyerSession, `Dana Deleted ${Date.now().toString(36)}`);
    expect((await buyerSession.get('/api/stats')).status()).toBe(200);

    await signInAsAdmin(page);
    await page.goto('/dashboard/allUser?role=Buyer');
    await expect(page.getByRole('heading', { level: 1, name: 'All Buyers' })).toBeVisible();
    await page.getByLabel('Search by name or email').fill(buyer.email);
    const row = page.getByTestId('user-row').filter({ hasText: buyer.email });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Buyer');

    await row.getByRole('button', { name: `Delete ${buyer.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${buyer.name}?` });
    await expect(dialog).toContainText(`${buyer.name} (${buyer.email}) can no longer sign in`);
    await expect(dialog).toContainText('open bookings are cancelled');
    await dialog.getByRole('button', { name: 'Delete user' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'User deleted' })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(0);
    await expect(page.getByText(`No buyers match “${buyer.email}”.`).first()).toBeVisible();

    // Signed out at once, and kept out.
    expect((await buyerSession.get('/api/stats')).status()).toBe(401);
    const signIn = await buyerSession.post('/api/auth/sign-in/email', {
      data: { email: buyer.email, password: buyer.password },
    });
    expect(signIn.status()).toBe(403);
    expect(((await signIn.json()) as { error: { code: string } }).error.code).toBe('user-disabled');
    await buyerSession.dispose();

    await page.goto('/dashboard/audit');
    await expect(
      page.getByTestId('audit-row').filter({ hasText: buyer.email }).filter({
        hasText: 'Deleted a Buyer account',
      }),
    ).toHaveCount(1);
  });

  test('admin rows show no role and no Delete button', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/dashboard/allUser');
    await expect(page.getByRole('heading', { level: 1, name: 'All Users' })).toBeVisible();
    await page.getByLabel('Search by name or email').fill('admin@demo.local');
    const row = page.getByTestId('user-row').filter({ hasText: 'admin@demo.local' });
    await expect(row).toHaveCount(1);
    await expect(page.getByTestId('user-row')).toHaveCount(1);
    await expect(row.getByRole('button')).toHaveCount(0);
    await expect(row.getByRole('cell').nth(1)).toHaveText('');
  });
});

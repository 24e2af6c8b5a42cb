import type { ListingDetail, Stats } from '@carmarket/shared';
import { expect, test, type Page } from '@playwright/test';

import { addCarApi, otherSession, signUpBuyerApi, signUpSellerApi, waitForMail } from './site';

const DEMO_PASSWORD = 'demo-drive-2026';

async function signInAsAdmin(page: Page) {
  const response = await page.request.post('/api/auth/sign-in/email', {
    data: { email: 'admin@demo.local', password: DEMO_PASSWORD },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Whether a car's page, through the API, shows its seller verified. */
async function sellerVerified(page: Page, carId: string) {
  const detail = (await (await page.request.get(`/api/listings/${carId}`)).json()) as ListingDetail;
  return detail.sellerVerified;
}

test.describe('administration', () => {
  test('the admin verifies a new seller, whose cars then carry the badge', async ({
    page,
    playwright,
  }) => {
    // A seller of its own: the demo seller is seeded verified.
    const sellerSession = await otherSession(playwright);
    const seller = await signUpSellerApi(sellerSession, `Val Verify ${Date.now().toString(36)}`);
    const carName = `Kia EV9 ${Date.now().toString(36)}`;
    const carId = await addCarApi(sellerSession, carName);

    await signInAsAdmin(page);
    expect(await sellerVerified(page, carId)).toBe(false);
    await page.goto('/dashboard/allUser?role=Seller');
    await expect(page.getByRole('heading', { level: 1, name: 'All Sellers' })).toBeVisible();

    await page.getByLabel('Search by name or email').fill(seller.email);
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(seller.email)}`));
    const row = page.getByTestId('user-row').filter({ hasText: seller.email });
    await expect(row).toHaveCount(1);
    await expect(page.getByTestId('user-row')).toHaveCount(1);

    await row.getByRole('button', { name: `Verify ${seller.name}` }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'User verified' })).toBeVisible();
    await expect(row.getByText('Verified', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: /^Verify/ })).toHaveCount(0);

    // The badge on their car: through the API, and on the car's page.
    expect(await sellerVerified(page, carId)).toBe(true);
    await page.goto(`/listing/${carId}`);
    await expect(page.getByRole('heading', { level: 1, name: carName })).toBeVisible();
    await expect(
      // The car itself, not the similar cars under it.
      page.getByRole('article', { name: carName, exact: true }).getByText('Verified seller', {
        exact: true,
      }),
    ).toBeVisible();

    // The audit log records it.
    await page.goto('/dashboard/audit');
    await expect(
      page.getByTestId('audit-row').filter({ hasText: 'Verified a seller' }).filter({
        hasText: seller.email,
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
    // The newest buyer is on the first page before the search applies: wait for the search's
    // own answer, so the row deleted is the one it lists (not the page it replaces).
    await expect(
      page.getByText(`Showing the one buyer matching “${buyer.email}”.`).first(),
    ).toBeVisible();
    const row = page.getByTestId('user-row').filter({ hasText: buyer.email });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Buyer');

    await row.getByRole('button', { name: `Delete ${buyer.name}` }).click();
    // What the dialog says: delete-user-dialog.test.tsx.
    const dialog = page.getByRole('dialog', { name: `Delete ${buyer.name}?` });
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

  test('the admin removes a car with a reason the seller is mailed, on the car page and in the seller’s cars (rough edge 16)', async ({
    page,
    playwright,
  }) => {
    const marker = Date.now().toString(36);
    const sellerSession = await otherSession(playwright);
    const seller = await signUpSellerApi(sellerSession, `Rita Removed ${marker}`);
    const first = `Fake Photo EV ${marker}`;
    const second = `Stolen Van ${marker}`;
    const firstId = await addCarApi(sellerSession, first);
    await addCarApi(sellerSession, second);
    await sellerSession.dispose();

    await signInAsAdmin(page);
    await page.goto(`/listing/${firstId}`);
    await expect(page.getByRole('heading', { level: 1, name: first })).toBeVisible();
    await page.getByRole('button', { name: 'Remove car' }).click();
    // Its words, and a reason required: remove-car-dialog.test.tsx.
    const dialog = page.getByRole('dialog', { name: `Remove ${first}?` });
    const reasonBox = dialog.getByLabel('Reason, for the seller');
    const reason = 'The photos show a different car. Please list it again with its own photos.';
    await reasonBox.fill(reason);
    await dialog.getByRole('button', { name: 'Remove car' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: `${first} removed. ${seller.name} was told why` }),
    ).toBeVisible();
    await expect(dialog).toBeHidden();
    // The car's status, once the page has loaded it again.
    await expect(page.getByText('Removed', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(`You removed this car; ${seller.name} was told why`)).toBeFocused();
    await expect(page.getByRole('button', { name: 'Remove car' })).toHaveCount(0);
    const mail = await waitForMail(seller.email, `Your ${first} was removed from CarMarket`);
    expect(mail.text).toContain(reason);

    // The seller's cars, from the sellers' list.
    await page.goto('/dashboard/allUser?role=Seller');
    await page.getByLabel('Search by name or email').fill(seller.email);
    const row = page.getByTestId('user-row').filter({ hasText: seller.email });
    await expect(row).toHaveCount(1);
    await row.getByRole('link', { name: `Cars of ${seller.name}` }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: `Cars of ${seller.name}` }),
    ).toBeVisible();
    const cars = page.getByTestId('user-car');
    await expect(cars).toHaveCount(2);
    const removed = cars.filter({ hasText: first });
    await expect(removed).toContainText('Removed');
    await expect(removed.getByRole('button')).toHaveCount(0);
    const onSale = cars.filter({ hasText: second });
    await expect(onSale).toContainText('On sale');

    await onSale.getByRole('button', { name: `Remove ${second}` }).click();
    const again = page.getByRole('dialog', { name: `Remove ${second}?` });
    await again.getByLabel('Reason, for the seller').fill('Reported stolen.');
    await again.getByRole('button', { name: 'Remove car' }).click();
    await expect(again).toBeHidden();
    await expect(onSale.getByText('Removed', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(onSale.getByRole('button')).toHaveCount(0);
    expect(
      (await waitForMail(seller.email, `Your ${second} was removed from CarMarket`)).text,
    ).toContain('Reported stolen.');

    // The audit log keeps the reasons.
    await page.goto('/dashboard/audit');
    await expect(
      page
        .getByTestId('audit-row')
        .filter({ hasText: `Removed a car: ${reason}` })
        .filter({ hasText: first }),
    ).toHaveCount(1);
  });

  test('deleting a seller keeps their withdrawn cars counted as withdrawn, not removed by an admin (rough edge 16)', async ({
    page,
    playwright,
  }) => {
    test.setTimeout(90_000);
    const marker = Date.now().toString(36);
    const sellerSession = await otherSession(playwright);
    const seller = await signUpSellerApi(sellerSession, `Walter Withdrawn ${marker}`);
    const carId = await addCarApi(sellerSession, `Retired Sedan ${marker}`);
    expect((await sellerSession.post(`/api/listings/${carId}/withdraw`)).ok()).toBe(true);
    await sellerSession.dispose();

    await signInAsAdmin(page);
    const before = (await (await page.request.get('/api/stats')).json()) as Stats;
    await page.goto('/dashboard/allUser?role=Seller');
    await page.getByLabel('Search by name or email').fill(seller.email);
    const row = page.getByTestId('user-row').filter({ hasText: seller.email });
    await row.getByRole('button', { name: `Delete ${seller.name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete user' }).click();
    await expect(row).toHaveCount(0);

    await page.goto('/dashboard');
    const chart = page.getByRole('table', { name: 'Cars by status' });
    await expect(chart.getByRole('row', { name: /^Withdrawn/ }).getByRole('cell')).toHaveText(
      String(before.listingsByStatus.withdrawn ?? 0),
    );
    await expect(chart.getByRole('row', { name: /^Removed/ }).getByRole('cell')).toHaveText(
      String(before.listingsByStatus.removed ?? 0),
    );
  });

  test('the admin adds a category, which sellers can choose and the home page shows', async ({
    page,
  }) => {
    const name = `Kit car ${Date.now().toString(36)}`;
    await signInAsAdmin(page);
    await page.goto('/dashboard');
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Categories' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Categories' })).toBeVisible();
    const form = page.getByRole('region', { name: 'Add a category' });
    await form.getByLabel('Name').fill(name);
    // The radio is drawn as its picture and words: a person presses those.
    await form.getByText('Van, red', { exact: true }).click();
    await expect(form.getByRole('radio', { name: 'Van, red' })).toBeChecked();
    await form.getByRole('button', { name: 'Add category' }).click();
    await expect(page.getByRole('alert').filter({ hasText: `${name} added` })).toBeVisible();
    // At once, at the end of the admin's list: the change refreshed it.
    await expect(page.getByTestId('category-row').last()).toContainText(name);
    // The same name in other letters is refused beside the field.
    await form.getByLabel('Name').fill(name.toUpperCase());
    await form.getByRole('button', { name: 'Add category' }).click();
    await expect(form.getByText(`There is already a category named “${name}”.`)).toBeVisible();
    await page.goto('/dashboard/audit');
    await expect(
      page.getByTestId('audit-row').filter({ hasText: 'Added a category' }).filter({
        hasText: name,
      }),
    ).toHaveCount(1);

    // A seller finds it in the add-car form, and lists a car in it.
    await page.context().clearCookies();
    await signUpSellerApi(page.request, `Kim Kitcar ${Date.now().toString(36)}`);
    await page.goto('/dashboard/add-product');
    const category = page.getByLabel('Category');
    await expect(category.getByRole('option', { name })).toBeAttached();
    await category.selectOption(name);
    await addCarApi(page.request, `Caterham Seven ${Date.now().toString(36)}`, {
      category: name,
    });

    // The home page shows its tile, with the car.
    await page.goto('/');
    await expect(
      page.getByTestId('category-tile').filter({ has: page.getByRole('heading', { name }) }),
    ).toContainText('1 car available');
  });
});

import { expect, test, type Page } from '@playwright/test';

import { addCarApi, fromSite, signUpSellerApi, waitForHydration } from './site';

const rows = (page: Page) => page.getByTestId('my-car-row');
const namesShown = (page: Page) => rows(page).locator('th p.font-semibold').allTextContents();
const tabs = (page: Page) => page.getByRole('group', { name: 'Show cars by status' });

/** A new seller of the page's own (so the counts are the test's alone) with four cars, one withdrawn. */
async function sellerWithFourCars(page: Page) {
  await signUpSellerApi(page.request, 'Dora Dealer');
  const tag = Math.random().toString(36).slice(2, 7);
  const cars = {
    corolla: `Toyota Corolla ${tag}`,
    niro: `Kia Niro ${tag}`,
    tesla: `Tesla Model 3 ${tag}`,
    golf: `Volkswagen Golf ${tag}`,
  };
  await addCarApi(page.request, cars.corolla, {
    make: 'Toyota',
    model: 'Corolla',
    reprice: 1_800_000,
  });
  const niroId = await addCarApi(page.request, cars.niro, {
    make: 'Kia',
    model: 'Niro',
    reprice: 1_200_000,
  });
  await addCarApi(page.request, cars.tesla, {
    make: 'Tesla',
    model: 'Model 3',
    reprice: 2_500_000,
  });
  await addCarApi(page.request, cars.golf, { make: 'Volkswagen', model: 'Golf', reprice: 900_000 });
  const withdrawn = await page.request.post(`/api/listings/${niroId}/withdraw`, {
    headers: fromSite,
  });
  expect(withdrawn.ok(), await withdrawn.text()).toBe(true);
  await page.goto('/dashboard/my-products');
  await waitForHydration(page);
  await expect(rows(page)).toHaveCount(4);
  return cars;
}

test.describe('My cars: tabs, search and order', () => {
  test('a seller filters their cars by status, with the counts on the tabs; a reload and Back keep the tab', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const { corolla, niro, tesla, golf } = await sellerWithFourCars(page);
    // Every tab with its count; All is pressed.
    await expect(tabs(page).getByRole('button', { name: 'All 4', pressed: true })).toBeVisible();
    await expect(tabs(page).getByRole('button', { name: 'On sale 3' })).toBeVisible();
    await expect(tabs(page).getByRole('button', { name: 'Reserved 0' })).toBeVisible();
    await expect(tabs(page).getByRole('button', { name: 'Sold 0' })).toBeVisible();
    await expect(tabs(page).getByRole('button', { name: 'Withdrawn 1' })).toBeVisible();

    // A tab shows its cars alone, and the address keeps it.
    await tabs(page).getByRole('button', { name: 'Withdrawn 1' }).click();
    await expect(page).toHaveURL(/status=withdrawn/);
    await expect(
      tabs(page).getByRole('button', { name: 'Withdrawn 1', pressed: true }),
    ).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(niro);
    await page.reload();
    await waitForHydration(page);
    await expect(
      tabs(page).getByRole('button', { name: 'Withdrawn 1', pressed: true }),
    ).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(niro);
    // The keyboard reaches the tabs: On sale, from Withdrawn, is three tabs back.
    await tabs(page).getByRole('button', { name: 'Withdrawn 1' }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/status=available/);
    await expect(
      tabs(page).getByRole('button', { name: 'On sale 3', pressed: true }),
    ).toBeVisible();
    await expect
      .poll(async () => (await namesShown(page)).sort())
      .toEqual([corolla, golf, tesla].sort());
    // Back: the withdrawn car again.
    await page.goBack();
    await expect(page).toHaveURL(/status=withdrawn/);
    await expect(rows(page)).toHaveCount(1);
    await tabs(page).getByRole('button', { name: 'All 4' }).click();
    await expect(rows(page)).toHaveCount(4);
    expect(page.url()).not.toContain('status=');
  });

  test('a seller searches their cars and sorts them; a reload keeps the search and the order', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const { corolla, niro, tesla, golf } = await sellerWithFourCars(page);
    // Search: by name, make or model; the tabs count what it finds.
    const search = page.getByRole('searchbox', { name: 'Search your cars' });
    await search.fill('corolla');
    await expect(page).toHaveURL(/q=corolla/);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(corolla);
    await expect(tabs(page).getByRole('button', { name: 'All 1', pressed: true })).toBeVisible();
    await expect(tabs(page).getByRole('button', { name: 'Withdrawn 0' })).toBeVisible();
    await search.fill('KIA');
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(niro);
    await tabs(page).getByRole('button', { name: 'On sale 0' }).click();
    await expect(page.getByText('No cars match “KIA” among cars on sale')).toBeVisible();
    await page.reload();
    await waitForHydration(page);
    await expect(search).toHaveValue('KIA');
    await expect(page.getByText('No cars match “KIA” among cars on sale')).toBeVisible();
    // The box's own clear button: the tab stays.
    await page.getByRole('search', { name: 'Search your cars' }).getByRole('button').click();
    await expect(search).toHaveValue('');
    await expect(search).toBeFocused();
    await expect(rows(page)).toHaveCount(3);
    await tabs(page).getByRole('button', { name: 'All 4' }).click();

    // Nothing found: says so, with a way back.
    await search.fill('nothing like it');
    await expect(page.getByText('No cars match “nothing like it”')).toBeVisible();
    await expect(rows(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Show every car' }).click();
    await expect(search).toHaveValue('');
    await expect(rows(page)).toHaveCount(4);
    expect(page.url()).not.toContain('q=');

    // Sorting, kept by a reload too.
    await page.getByLabel('Sort').selectOption('price_asc');
    await expect(page).toHaveURL(/sort=price_asc/);
    await expect.poll(() => namesShown(page)).toEqual([golf, niro, corolla, tesla]);
    await page.getByLabel('Sort').selectOption('price_desc');
    await expect.poll(() => namesShown(page)).toEqual([tesla, corolla, niro, golf]);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByLabel('Sort')).toHaveValue('price_desc');
    await expect.poll(() => namesShown(page)).toEqual([tesla, corolla, niro, golf]);
    await page.getByLabel('Sort').selectOption('oldest');
    await expect.poll(() => namesShown(page)).toEqual([corolla, niro, tesla, golf]);
    await page.getByLabel('Sort').selectOption('newest');
    await expect.poll(() => namesShown(page)).toEqual([golf, tesla, niro, corolla]);
    expect(page.url()).not.toContain('sort=');
  });
});

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

/*
 * The journeys through My cars' address: a tab, a search and an order are kept by a reload and
 * Back. What the filters show in each state (every tab's count, the keyboard's way through the
 * tabs, the clear button leaving focus in the box, nothing found) is in my-cars-filters.test.tsx
 * and my-cars.test.tsx; the orders themselves in the server's my-listings-filters.test.ts.
 */
test.describe('My cars: tabs, search and order', () => {
  test('a seller filters their cars by status; a reload and Back keep the tab', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const { corolla, niro, tesla, golf } = await sellerWithFourCars(page);
    // A tab shows its cars alone, and the address keeps it.
    await tabs(page).getByRole('button', { name: 'Withdrawn 1' }).click();
    await expect(page).toHaveURL(/status=withdrawn/);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(niro);
    await page.reload();
    await waitForHydration(page);
    await expect(
      tabs(page).getByRole('button', { name: 'Withdrawn 1', pressed: true }),
    ).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(niro);
    await tabs(page).getByRole('button', { name: 'On sale 3' }).click();
    await expect(page).toHaveURL(/status=available/);
    await expect
      .poll(async () => (await namesShown(page)).sort())
      .toEqual([corolla, golf, tesla].sort());
    // Back: the withdrawn car again.
    await page.goBack();
    await expect(page).toHaveURL(/status=withdrawn/);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(niro);
  });

  test('a seller searches their cars and sorts them; a reload keeps the search and the order', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const { corolla, niro, tesla, golf } = await sellerWithFourCars(page);
    // Search: by make too, whatever its case.
    const search = page.getByRole('searchbox', { name: 'Search your cars' });
    await search.fill('KIA');
    await expect(page).toHaveURL(/q=KIA/);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(niro);
    await search.fill('');
    await expect(rows(page)).toHaveCount(4);
    expect(page.url()).not.toContain('q=');

    // Sorting, then a search: a reload keeps both.
    await page.getByLabel('Sort').selectOption('price_desc');
    await expect(page).toHaveURL(/sort=price_desc/);
    await expect.poll(() => namesShown(page)).toEqual([tesla, corolla, niro, golf]);
    await search.fill('toyota');
    await expect(rows(page)).toHaveCount(1);
    await page.reload();
    await waitForHydration(page);
    await expect(search).toHaveValue('toyota');
    await expect(page.getByLabel('Sort')).toHaveValue('price_desc');
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(corolla);
    // The box's own clear button: every car again, in the order kept.
    await page.getByRole('search', { name: 'Search your cars' }).getByRole('button').click();
    await expect(search).toHaveValue('');
    await expect.poll(() => namesShown(page)).toEqual([tesla, corolla, niro, golf]);
    expect(page.url()).not.toContain('q=');
  });
});

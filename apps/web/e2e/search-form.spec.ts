import type { SearchResult } from '@carmarket/shared';
import { expect, test, type Locator, type Page } from '@playwright/test';

import { expectNoAxeViolationsWideAndNarrow, signUpBuyer, waitForHydration } from './site';

const cards = (page: Page) => page.getByTestId('listing-card');

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900, phone: false },
  { name: 'phone', width: 390, height: 844, phone: true },
] as const;

/** The query of every search the page asks the API for from now on. */
function listingRequests(page: Page): string[] {
  const queries: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/listings') queries.push(url.search);
  });
  return queries;
}

/** The filters: the side panel on a wide screen, the drawer on a phone (opened). */
async function filtersOf(page: Page, phone: boolean): Promise<Locator> {
  if (!phone) return page.getByRole('complementary', { name: 'Filters' });
  await page.getByRole('button', { name: /^Filters/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Filters' });
  await expect(drawer).toBeVisible();
  return drawer;
}

/** The element a field's aria-describedby names. */
async function descriptionOf(page: Page, field: Locator): Promise<string> {
  const id = await field.getAttribute('aria-describedby');
  expect(id).toBeTruthy();
  return (await page.locator(`[id="${id}"]`).textContent()) ?? '';
}

for (const { name, width, height, phone } of WIDTHS) {
  test.describe(`the search form (${name}, ${width} px)`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height });
      await signUpBuyer(page, 'Zoe Zipper');
    });

    test('a ZIP in the place picker reads "10001 – New York, NY" and finds cars near it, nearest first', async ({
      page,
    }) => {
      await page.goto('/cars');
      await waitForHydration(page);
      const filters = await filtersOf(page, phone);
      await filters.getByRole('combobox', { name: 'Near' }).fill('10001');
      const option = filters.getByRole('option', { name: '10001 – New York, NY' });
      await expect(option).toBeVisible();
      await option.click();
      await expect(page).toHaveURL(/near=1000010001/);
      await filters.getByLabel('Within').selectOption({ label: '200 mi' });
      await expect(page).toHaveURL(/radiusKm=322/);
      if (phone) await filters.getByRole('button', { name: /^Show \d+ cars?$/ }).click();
      await page.getByLabel('Sort').selectOption('distance');
      await expect(page).toHaveURL(/sort=distance/);

      const api = (await (
        await page.request.get('/api/listings?near=1000010001&radiusKm=322&sort=distance')
      ).json()) as SearchResult;
      expect(api.total).toBeGreaterThan(0);
      // Philadelphia's demo car, about 130 km away, is in; Seattle's is not.
      expect(api.items.every((car) => car.distanceKm! <= 322)).toBe(true);
      await expect(
        page.getByRole('heading', { name: `${api.total} ${api.total === 1 ? 'car' : 'cars'}` }),
      ).toBeVisible();
      await expect(
        page.getByRole('button', { name: /Within 200 mi of 10001 – New York, NY/ }),
      ).toBeVisible();
      await expect(cards(page).first().getByRole('heading')).toHaveText(api.items[0]!.name);
      // The distance and the seller apart by a gap: no "·" left dangling when the name wraps.
      await expect(cards(page).first()).toContainText(/ mi away/);
      await expect(cards(page).first()).not.toContainText(/away\s*·/);
    });

    test('Back to results returns to the same search, sort and place on the page', async ({
      page,
    }) => {
      await page.goto('/cars?sort=price_desc&limit=12');
      await waitForHydration(page);
      await expect(cards(page)).toHaveCount(12);
      const filters = await filtersOf(page, phone);
      await filters.getByRole('checkbox', { name: /^Gasoline|^Petrol/ }).click();
      await expect(page).toHaveURL(/fuel=/);
      if (phone) await filters.getByRole('button', { name: /^Show \d+ cars?$/ }).click();
      // The new search drawn: its count, and all of its first page.
      const { total } = (await (
        await page.request.get(`/api/listings${new URL(page.url()).search}`)
      ).json()) as SearchResult;
      const count = Math.min(12, total);
      expect(count).toBeGreaterThan(6);
      const heading = page.getByRole('heading', { name: `${total} cars` });
      await expect(heading).toBeVisible();
      await expect(heading).not.toHaveAttribute('aria-busy', 'true');
      await expect(cards(page)).toHaveCount(count);
      const searchUrl = page.url();
      const car = cards(page).nth(count - 2);
      await car.scrollIntoViewIfNeeded();
      const scrolled = await page.evaluate(() => window.scrollY);
      expect(scrolled).toBeGreaterThan(300);
      const carName = (await car.getByRole('heading').textContent())!;
      await car.getByRole('link', { name: carName, exact: true }).click();
      await expect(page.getByRole('heading', { name: carName, level: 1 })).toBeVisible();
      const back = page.getByRole('link', { name: '← Back to results' });
      await expect(back).toBeVisible();
      await back.click();
      await expect(page).toHaveURL(searchUrl);
      await expect(cards(page)).toHaveCount(count);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 50);
      expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 50);
      await expect(page.getByLabel('Sort')).toHaveValue('price_desc');

      // Through that car's similar cars to another car: Back to results still leads to the search.
      await car.getByRole('link', { name: carName, exact: true }).click();
      await expect(page.getByRole('heading', { name: carName, level: 1 })).toBeVisible();
      await page.getByRole('heading', { level: 2, name: 'Similar cars' }).scrollIntoViewIfNeeded();
      const similar = page.getByTestId('similar-cars').getByRole('link', { name: /^Details of/ });
      const nextName = (await similar.first().textContent())!.replace(/^Details of the /, '');
      await similar.first().click();
      await expect(page.getByRole('heading', { name: nextName, level: 1 })).toBeVisible();
      await back.click();
      await expect(page).toHaveURL(searchUrl);
      await expect(cards(page)).toHaveCount(count);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 50);

      // A car page not opened from a search keeps its link to the car's category.
      const carPath = new URL(
        await car
          .getByRole('link', { name: carName, exact: true })
          .evaluate((link) => (link as HTMLAnchorElement).href),
      ).pathname;
      await page.goto('/');
      await page.goto(carPath);
      await expect(page.getByRole('heading', { name: carName, level: 1 })).toBeVisible();
      await waitForHydration(page);
      await expect(page.getByRole('link', { name: /^← Back to (?!results)/ })).toBeVisible();
      await expect(page.getByRole('link', { name: '← Back to results' })).toHaveCount(0);
    });
  });
}

test('an inverted range from a link, or a filter the server refuses, says so by its field and waits for nothing', async ({
  page,
}) => {
  // The fields' words, aria-invalid and descriptions, nothing asked of the server, and the phone's
  // Filters dialog that will not close on an inverted range: search-page.test.tsx. Here the real
  // server's refusal reaches the page, and axe scans the state at both widths.
  await signUpBuyer(page, 'Ria Range');
  const sent = listingRequests(page);
  await page.goto('/cars?priceMin=5000000&priceMax=1000000');
  await waitForHydration(page);
  await expect(page.getByRole('heading', { name: 'Check the filters' })).toBeVisible();
  await expect(
    page.getByText('The lowest price must not be above the highest').first(),
  ).toBeVisible();
  expect(sent).toEqual([]);

  // A place the server does not know: its 400 names `near`, and the page says so there.
  await page.goto('/cars?near=99999999&placeName=Nowhere');
  await waitForHydration(page);
  await expect(page.getByRole('heading', { name: 'Check the filters' })).toBeVisible();
  const near = page
    .getByRole('complementary', { name: 'Filters' })
    .getByRole('combobox', { name: 'Near' });
  await expect(near).toHaveAttribute('aria-invalid', 'true');
  expect(await descriptionOf(page, near)).toBe('That place is not in the list');
  await expectNoAxeViolationsWideAndNarrow(page);
});

test.describe('the header on a phone', () => {
  test('a search button opens a search field that goes to /cars?q=, with the focus on the results', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUpBuyer(page, 'Hana Header');
    await page.goto('/');
    await waitForHydration(page);
    // Its keys (Enter opens it with the focus in it, Escape closes it back on its button) and a
    // field opened on a search page starting from that search: site-header.test.tsx.
    const header = page.getByRole('banner');
    const open = header.getByRole('button', { name: 'Search cars' });
    const field = header.getByRole('searchbox', { name: 'Search cars' });
    await expect(field).toBeHidden();
    await open.click();
    await expect(field).toBeVisible();
    await expect(field).toBeFocused();
    await expectNoAxeViolationsWideAndNarrow(page);
    await page.setViewportSize({ width: 390, height: 844 });

    await field.fill('corolla');
    await field.press('Enter');
    await expect(page).toHaveURL(/\/cars\?q=corolla$/);
    await expect(page.getByRole('searchbox', { name: 'Search cars' }).last()).toHaveValue(
      'corolla',
    );
    // Focus is on the results' count, not left on the page's body; the field has closed.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    await expect(page.locator(':focus')).toHaveText(/cars?$/);
    await expect(field).toBeHidden();

    // Wide screens keep their field in the header, and no button.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(header.getByRole('button', { name: 'Search cars' })).toBeHidden();
    await expect(header.getByRole('searchbox', { name: 'Search cars' })).toBeVisible();
  });
});

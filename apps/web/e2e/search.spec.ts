import type { SearchResult } from '@carmarket/shared';
import { expect, test, type Page } from '@playwright/test';

import { signUpBuyer, waitForHydration } from './site';

const cards = (page: Page) => page.getByTestId('listing-card');
const pricesOf = async (page: Page) =>
  (await cards(page).locator('[data-testid="listing-price"]').allTextContents()).map((text) =>
    Number(text.replace(/[^0-9.]/g, '')),
  );

test.describe('finding a car', () => {
  test('a buyer narrows to a make and a price range, sorts, loads more, and Back returns to the same place', async ({
    page,
  }) => {
    await signUpBuyer(page, 'Sam Searcher');
    await page.goto('/cars?limit=3');
    await expect(page.getByRole('heading', { name: 'Find a car' })).toBeVisible();
    await expect(cards(page)).toHaveCount(3);

    const filters = page.getByRole('complementary', { name: 'Filters' });
    await filters.getByRole('checkbox', { name: /^Toyota/ }).click();
    await expect(page).toHaveURL(/make=Toyota/);
    await filters.getByLabel('From', { exact: true }).first().fill('2000');
    await filters.getByLabel('To', { exact: true }).first().fill('60000');
    await filters.getByLabel('To', { exact: true }).first().press('Enter');
    await expect(page).toHaveURL(/priceMax=6000000/);
    await page.getByLabel('Sort').selectOption('price_asc');
    await expect(page).toHaveURL(/sort=price_asc/);

    // The page says what the API finds for the same search.
    const api = (await (
      await page.request.get('/api/listings?make=Toyota&priceMin=200000&priceMax=6000000')
    ).json()) as SearchResult;
    expect(api.total).toBeGreaterThan(3);
    await expect(page.getByRole('heading', { name: `${api.total} cars` })).toBeVisible();
    const inUse = page.getByRole('list', { name: 'Filters in use' });
    await expect(inUse.getByRole('button', { name: /Toyota/ })).toBeVisible();

    await page.getByRole('button', { name: 'Load more cars' }).click();
    await expect(cards(page)).toHaveCount(Math.min(6, api.total));
    const prices = await pricesOf(page);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    for (const price of prices) {
      expect(price).toBeGreaterThanOrEqual(2000);
      expect(price).toBeLessThanOrEqual(60000);
    }

    // Open the fifth car, then come back: same search, same cars, same place on the page.
    const fifth = cards(page).nth(4);
    await fifth.scrollIntoViewIfNeeded();
    const searchUrl = page.url();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(100);
    const name = await fifth.getByRole('heading').textContent();
    await fifth.getByRole('link', { name: name!, exact: true }).click();
    await expect(page).toHaveURL(/\/listing\//);
    await expect(page.getByRole('heading', { name: name!, level: 1 })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(searchUrl);
    await expect(cards(page)).toHaveCount(Math.min(6, api.total));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 50);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 50);

    // Another search opened by address (typed, bookmarked) starts at the top, not where the
    // last page opened so was left: every full load is the router's entry "default".
    // (An address not loaded before in this test: one that was would go back to where it was left.)
    await page.goto('/cars?limit=3&sort=year_desc');
    await expect(cards(page)).toHaveCount(3);
    await waitForHydration(page);
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await page.goto('/cars?limit=3&sort=price_desc');
    await expect(cards(page)).toHaveCount(3);
    await waitForHydration(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('on a phone the filters open in a drawer, and a search link shows the same cars in a new tab', async ({
    page,
    context,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUpBuyer(page, 'Sam Searcher');
    await page.goto('/cars');
    await expect(page.getByRole('complementary', { name: 'Filters' })).toBeHidden();
    await page.getByRole('button', { name: /^Filters/ }).click();
    const drawer = page.getByRole('dialog', { name: 'Filters' });
    await expect(drawer).toBeVisible();
    // Its buttons stay at the very bottom, with no filter showing below them as it scrolls.
    const bar = drawer.getByRole('button', { name: /^Show \d+ cars$/ }).locator('..');
    const gap = await bar.evaluate((element) => {
      const box = element.closest('.modal-box')!;
      return box.getBoundingClientRect().bottom - element.getBoundingClientRect().bottom;
    });
    expect(gap).toBeLessThanOrEqual(1);
    await drawer.getByRole('checkbox', { name: /^Electric/ }).click();
    await expect(page).toHaveURL(/fuel=electric/);

    await drawer.getByRole('button', { name: /^Show \d+ cars$/ }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('button', { name: /^Electric/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();
    const specs = await cards(page).locator('p').filter({ hasText: ' · ' }).allTextContents();
    expect(specs.length).toBeGreaterThan(0);
    for (const line of specs) expect(line).toContain('Electric');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);

    // The address holds the whole search: pasted into a new tab, it shows the same cars.
    await page.getByRole('searchbox', { name: 'Search cars' }).first().fill('tesla');
    await expect(page).toHaveURL(/q=tesla/);
    // The count of the new search, and not busy: the electric cars no longer show in its place.
    const { total } = (await (
      await page.request.get('/api/listings?fuel=electric&q=tesla')
    ).json()) as SearchResult;
    const count = page.getByRole('heading', { name: `${total} ${total === 1 ? 'car' : 'cars'}` });
    await expect(count).toBeVisible();
    await expect(count).not.toHaveAttribute('aria-busy', 'true');
    const names = await cards(page).getByRole('heading').allTextContents();
    const other = await context.newPage();
    await other.goto(page.url());
    await expect(other.getByRole('heading', { name: /^\d+ cars?$/ })).toHaveText(
      (await page.getByRole('heading', { name: /^\d+ cars?$/ }).textContent())!,
    );
    await expect(cards(other).getByRole('heading')).toHaveText(names);
  });

  test('the search and a car page arrive with their cars in the HTML, and the app takes them over without an error', async ({
    page,
    browser,
  }) => {
    await signUpBuyer(page, 'Robin Reader');
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });

    // Without any script: the server rendered the person's search and the car they open.
    const noScript = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
    });
    const bare = await noScript.newPage();
    await bare.goto('/cars?sort=price_asc');
    await expect(bare.getByRole('heading', { name: 'Find a car' })).toBeVisible();
    await expect(cards(bare).first()).toBeVisible();
    const cheapest = (await cards(bare).first().getByRole('heading').textContent())!;
    await cards(bare).first().getByRole('link', { name: cheapest, exact: true }).click();
    await expect(bare.getByRole('heading', { name: cheapest, level: 1 })).toBeVisible();
    await expect(bare.getByRole('button', { name: 'Book now' })).toBeVisible();
    const carUrl = bare.url();
    await noScript.close();

    // With it: the same page, hydrated (a mismatch would be reported as an error), then live.
    await page.goto('/cars?sort=price_asc');
    await waitForHydration(page);
    await expect(cards(page).first().getByRole('heading')).toHaveText(cheapest);
    await page.getByLabel('Sort').selectOption('price_desc');
    await expect(page).toHaveURL(/sort=price_desc/);
    await expect(cards(page).first().getByRole('heading')).not.toHaveText(cheapest);
    await page.goto(carUrl);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Book now' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('a make ticked and Book now pressed before the page’s code has arrived are acted on once it has', async ({
    page,
  }) => {
    await signUpBuyer(page, 'Quick Clicker');
    // Hold the app's code back until the clicks are made.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    // Not waiting for `load`: the held entry script, added once the page has painted, can be
    // what `load` waits for. early-clicks.ts is a module script in the HTML, run before this.
    await page.goto('/cars', { waitUntil: 'domcontentloaded' });
    const toyota = page
      .getByRole('complementary', { name: 'Filters' })
      .getByRole('checkbox', { name: /^Toyota/ });
    await toyota.click();
    // Held: no tick with no search behind it.
    await expect(toyota).not.toBeChecked();
    release();
    await expect(page).toHaveURL(/make=Toyota/);
    await expect(toyota).toBeChecked();

    await page.unroute(/\/assets\/index-[^/]+\.js$/);
    // A Toyota on sale: the newest may be another test file's, held (Reserved), with no Book now.
    const { items } = (await (
      await page.request.get('/api/listings?make=Toyota')
    ).json()) as SearchResult;
    const carHref = `/listing/${items.find((car) => car.status === 'available')!._id}`;
    let releaseCar = () => {};
    const carReleased = new Promise<void>((resolve) => (releaseCar = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await carReleased;
      await route.continue();
    });
    await page.goto(carHref, { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'Book now' }).click();
    releaseCar();
    await expect(page.getByRole('dialog')).toBeVisible();
  });

  test('a search that finds nothing says which filter to drop and what that would find', async ({
    page,
  }) => {
    await signUpBuyer(page, 'Nora Nothing');
    const { total } = (await (
      await page.request.get('/api/listings?make=Toyota')
    ).json()) as SearchResult;
    expect(total).toBeGreaterThan(1);
    // No car costs a dollar or less: dropping the price finds the Toyotas, dropping the make none.
    await page.goto('/cars?make=Toyota&priceMax=100');
    await expect(page.getByText('No cars match this search')).toBeVisible();
    await expect(page.getByText(`Without Up to $1, ${total} cars would match.`)).toBeVisible();
    const remove = page.getByRole('button', { name: /^Remove / });
    await expect(remove).toHaveText([`Remove Up to $1 (${total} cars)`, 'Remove Toyota (0 cars)']);
    // From the keyboard: focus moves to the count of the cars found, not to the top of the page.
    await remove.first().focus();
    await page.keyboard.press('Enter');
    await expect(page).not.toHaveURL(/priceMax/);
    await expect(page.getByRole('heading', { name: `${total} cars` })).toBeFocused();
  });

  test('a page whose code could not be loaded says so, and its Reload button works', async ({
    page,
  }) => {
    await signUpBuyer(page, 'Flaky Network');
    const searchPageCode = /\/assets\/cars-[^/]+\.js$/;
    await page.route(searchPageCode, (route) => route.abort('connectionfailed'));
    await page.goto('/cars');
    await expect(page.getByRole('heading', { name: 'This page could not be shown' })).toBeVisible();
    // The server drew the page's buttons before the code failed: none may stay held for good.
    await waitForHydration(page);
    await page.unroute(searchPageCode);
    await page.getByRole('button', { name: 'Reload the page' }).click();
    await expect(page.getByRole('heading', { name: 'Find a car' })).toBeVisible();
    await expect(cards(page).first()).toBeVisible();
  });
});

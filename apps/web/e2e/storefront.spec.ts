import { expect, test, type Page } from '@playwright/test';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
// The spec's three, and the wider demo set's own (the browser tests' server seeds it).
const SEEDED_CATEGORIES = ['Microbus', 'Luxury car', 'Electric car', 'Hybrid car'];
const QA_TOPICS = [
  /kinds of state/i,
  /prototypal inheritance/i,
  /unit test/i,
  /React, Angular or Vue/i,
];

/** Waits until the app has taken over the prerendered page, so its buttons work. */
async function waitForHydration(page: Page) {
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
}

/**
 * Waits until the category tiles have replaced their loading placeholders (by name: an admin's
 * test may add categories meanwhile).
 */
async function waitForCategories(page: Page) {
  for (const name of SEEDED_CATEGORIES) {
    await expect(
      page.getByTestId('category-tile').filter({ has: page.getByRole('heading', { name }) }),
    ).toHaveCount(1);
  }
}

async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test.describe('storefront', () => {
  test('the home page shows the hero, the three services and the categories', async ({ page }) => {
    await page.goto('/');

    await expect(
      page.getByRole('heading', { level: 1, name: /easy, fast way to buy and sell used cars/i }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse cars' })).toBeVisible();

    for (const service of ['Top Buy & Sell Car', 'Easy Payment', 'Easy To Use']) {
      await expect(page.getByRole('heading', { level: 3, name: service })).toBeVisible();
    }

    await waitForCategories(page);
    for (const name of SEEDED_CATEGORIES) {
      const tile = page.getByTestId('category-tile').filter({
        has: page.getByRole('heading', { name, exact: true }),
      });
      await expect(tile).toHaveCount(1);
      await expect(tile).toContainText(/\d+ cars? available/);
      await expect(tile).toHaveAttribute('href', new RegExp(`^/category/${UUID.source}$`));

      const icon = tile.getByRole('img');
      await expect(icon).toHaveAttribute('alt', /\S/);
      await expect(icon).toHaveAttribute('width', /^\d+$/);
      await expect(icon).toHaveAttribute('height', /^\d+$/);
      await icon.scrollIntoViewIfNeeded();
      await expect
        .poll(() => icon.evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0);
    }
  });

  test('the prerendered home page works under the CSP and hydrates cleanly', async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      const text = message.text();
      if (/content security policy|hydrat|minified react error/i.test(text)) problems.push(text);
    });
    page.on('pageerror', (error) => problems.push(error.message));

    const response = await page.goto('/');
    const html = (await response?.text()) ?? '';
    // The hero is in the HTML itself, so it paints before any script runs.
    expect(html).toMatch(/easy, fast way to buy and sell/i);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);

    await waitForCategories(page);
    expect(problems).toEqual([]);
  });

  test('a phone-sized screen has no horizontal scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await waitForCategories(page);
    await expectNoHorizontalScroll(page);

    await page.goto('/blog');
    await expectNoHorizontalScroll(page);

    await page.goto('/blog/front-end-questions-answered');
    await expectNoHorizontalScroll(page);
  });

  test('the menu on a phone can be used with the keyboard', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await waitForHydration(page);

    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.locator('#site-menu');
    await expect(menu.getByRole('link', { name: 'Blog' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();

    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();

    await page.keyboard.press('Enter');
    await menu.getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(menu).toBeHidden();
  });

  test('the blog shows the Q&A with its four topics, and a post opens', async ({ page }) => {
    await page.goto('/blog');

    const qa = page.getByRole('article').filter({
      has: page.getByRole('heading', { name: /four front-end questions/i }),
    });
    await expect(qa).toBeVisible();
    for (const topic of QA_TOPICS) {
      await expect(qa.getByRole('link', { name: topic })).toBeVisible();
    }

    await qa.getByRole('link', { name: 'Read all four answers' }).click();
    await expect(page).toHaveURL(/\/blog\/front-end-questions-answered$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/four front-end questions/i);
    for (const topic of QA_TOPICS) {
      await expect(page.getByRole('heading', { level: 2, name: topic })).toBeVisible();
    }

    await page.goto('/blog');
    await page
      .getByRole('link', { name: 'How to inspect a used car before you book it', exact: true })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'How to inspect a used car before you book it',
    );
    await expect(page.getByRole('heading', { level: 2, name: 'The test drive' })).toBeVisible();
  });

  test('an unknown address shows the not-found page', async ({ page }) => {
    const response = await page.goto('/this-page-does-not-exist');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: /home page/i })).toHaveAttribute(
      'href',
      '/',
    );
    await page.getByRole('main').getByRole('link', { name: /blog/i }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });

  test('a signed-out visitor opening a category is asked to sign in first', async ({ page }) => {
    await page.goto('/');
    await waitForCategories(page);
    const tile = page.getByTestId('category-tile').first();
    const href = await tile.getAttribute('href');
    expect(href).toMatch(new RegExp(`^/category/${UUID.source}$`));

    await tile.click();
    await expect(page).toHaveURL(`/login?next=${href}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/sign in/i);
    await expect(page.getByLabel('Email')).toBeVisible();
  });
});

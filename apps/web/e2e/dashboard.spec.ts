import { expect, test } from '@playwright/test';

import {
  addCarApi,
  bookCarApi,
  otherSession,
  payApi,
  signUpBuyerApi,
  signUpSellerApi,
  waitForHydration,
} from './site';

test.describe('dashboard', () => {
  test('the dashboard ends at its footer, its menu column runs the page’s height and comes first on the keyboard (rough edge 14)', async ({
    page,
  }) => {
    // Three loads of the overview, each of which may wait up to 20 s for its chart.
    test.setTimeout(60_000);
    // The seller's overview: the sales chart sits near its end, so its table for screen readers
    // reached below the footer (~180 px at 1280 px wide).
    const signIn = await page.request.post('/api/auth/sign-in/email', {
      data: { email: 'seller@demo.local', password: 'demo-drive-2026' },
    });
    expect(signIn.ok(), await signIn.text()).toBe(true);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 720 });
      await page.goto('/dashboard');
      await expect(
        page.getByRole('img', { name: /^Your sales over the last 30 days/ }),
      ).toBeVisible({
        timeout: 20_000,
      });
      await expect(
        page.getByRole('table', { name: /Your sales over the last 30 days/ }),
      ).toBeAttached();

      // Nothing, such as the charts' tables for screen readers, reaches below the footer.
      const below = await page.evaluate(() => {
        const footer = document.querySelector('footer')!.getBoundingClientRect();
        return document.documentElement.scrollHeight - (footer.bottom + window.scrollY);
      });
      expect(below, `blank page below the footer at ${width} px`).toBeLessThanOrEqual(1);
    }

    // Wide screens: the page is longer than the screen, and the menu's column as long as it.
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto('/dashboard');
    await expect(
      page.getByRole('img', { name: /^Your sales over the last 30 days/ }),
    ).toBeVisible();
    const heights = await page.evaluate(() => {
      const nav = document.querySelector('nav[aria-label="Dashboard"]')!;
      // The tallest box with the menu's background: the menu, or the column around it.
      const painted = [nav, nav.parentElement!].filter(
        (box) => getComputedStyle(box).backgroundColor !== 'rgba(0, 0, 0, 0)',
      );
      return {
        menu: Math.max(...painted.map((box) => box.getBoundingClientRect().height)),
        page: document.querySelector('.drawer-content')!.getBoundingClientRect().height,
        screen: window.innerHeight,
      };
    });
    expect(heights.page).toBeGreaterThan(heights.screen);
    expect(heights.menu).toBeGreaterThanOrEqual(heights.page - 1);
    // The menu stays in view below the site header as the page scrolls.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
    await expect(
      page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Overview' }),
    ).toBeInViewport();

    // From the top of the page's main part, the keyboard reaches the menu before the page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('#main').focus();
    await page.keyboard.press('Tab');
    await expect(
      page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Overview' }),
    ).toBeFocused();
  });

  test('a seller with a paid sale loads the dashboard from the server without an error (walk-through)', async ({
    page,
    playwright,
  }) => {
    test.setTimeout(60_000);
    // The server drew the chart's axis "$25.0K" where the browser drew "$25K": React threw away
    // the server's page (hydration error #418) on every full load of a seller's dashboard.
    await signUpSellerApi(page.request);
    const carId = await addCarApi(page.request, 'Chevrolet Bolt dashboard sale', {
      reprice: 2_500_000,
    });
    const buyer = await otherSession(playwright);
    try {
      await signUpBuyerApi(buyer);
      await payApi(buyer, await bookCarApi(buyer, carId));
    } finally {
      await buyer.dispose();
    }

    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 720 });
      await page.goto('/dashboard');
      await waitForHydration(page);
      await expect(
        page.getByRole('img', { name: /^Your sales over the last 30 days/ }),
      ).toBeVisible({ timeout: 20_000 });
      // The chart's axis carries money; its text is what the server drew.
      await expect(page.locator('svg text', { hasText: /^\$\d/ }).first()).toBeAttached();
      expect(errors, `errors loading /dashboard at ${width} px`).toEqual([]);
    }
  });
});

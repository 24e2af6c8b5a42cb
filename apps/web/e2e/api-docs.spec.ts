import { expect, test } from '@playwright/test';

test.describe('API documentation', () => {
  test('the docs page draws the API with no console error and no CSP violation (rough edge 17)', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    // Added by the test runner, not the page, so the page's CSP does not apply to it.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const response = await page.goto('/api/docs');
      expect(response?.status()).toBe(200);
      // The server builds the OpenAPI document on the first call, which takes a while.
      await expect(page.locator('.info .title')).toContainText('CarMarket API', {
        timeout: 30_000,
      });
      // Operations drawn from the OpenAPI document, styled (Swagger UI writes style attributes).
      const operation = page.locator('.opblock').first();
      await expect(operation).toBeVisible();
      await operation.locator('.opblock-summary').click();
      await expect(operation.locator('.opblock-body')).toBeVisible();

      const violations = await page.evaluate(
        () => (window as unknown as { cspViolations: string[] }).cspViolations,
      );
      expect(violations, `CSP violations at ${width} px`).toEqual([]);
      expect(errors, `console errors at ${width} px`).toEqual([]);
      // No axe check: the page is Swagger UI's own markup (nested buttons, contrast), not ours.
    }
  });
});

import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Where the browser tests' server listens (playwright.config.ts). */
export const SITE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3199}`;

/**
 * Headers for API calls made beside the page (`page.request`), as the page's own calls carry
 * them: a state-changing request with the session cookie must say it comes from the site.
 */
export const fromSite = { origin: SITE };

/**
 * A second person, apart from the page's: an API session of their own that sends the site's
 * Origin, as their pages would.
 */
export async function otherSession(playwright: {
  request: { newContext: (options: object) => Promise<APIRequestContext> };
}) {
  return playwright.request.newContext({ baseURL: SITE, extraHTTPHeaders: fromSite });
}

/** A new Buyer account, signed in through `request` (its own cookies, apart from the page's). */
export async function signUpBuyerApi(request: APIRequestContext, name = 'Dana Buyer') {
  const email = `buyer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'long-enough-password-2026';
  const signUp = await request.post('/api/auth/sign-up/email', { data: { name, email, password } });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const role = await request.post('/api/user', { data: { name, email, role: 'Buyer' } });
  expect(role.ok(), await role.text()).toBe(true);
  return { name, email, password };
}

/**
 * A new Buyer account, signed in in this page's browser context (`page.request` shares its
 * cookies), so each test has bookings of its own.
 */
export async function signUpBuyer(page: Page, name = 'Casey Carbuyer') {
  const email = `buyer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    data: { name, email, password: 'long-enough-password-2026' },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const role = await page.request.post('/api/user', {
    headers: fromSite,
    data: { name, email, role: 'Buyer' },
  });
  expect(role.ok(), await role.text()).toBe(true);
  return { name, email };
}

import { expect, test } from '@playwright/test';

import {
  dashboardNav,
  fromSite,
  mainNav,
  NEW_PASSWORD,
  registerThroughPage,
  signInApi,
  signInThroughPage,
  signUpBuyerApi,
  SITE,
  uniqueEmail,
  waitForHydration,
} from './site';

test.describe('signing in', () => {
  test('signing in straight away from the search page shows its cars', async ({ page }) => {
    // Opened signed out, /cars asked for its first page at once (401) and sent us to sign in.
    await page.goto('/cars');
    await expect(page).toHaveURL('/login?next=/cars');
    await expect(page.getByText('Sign in to search every car on sale.')).toBeVisible();
    await signInThroughPage(page, 'buyer@demo.local');
    await expect(page).toHaveURL('/cars');
    // Seconds later, not that refused answer: the cars.
    await expect(page.getByText(/^\d+ cars?$/)).toBeVisible();
    await expect(page.getByText('We could not load the cars.')).toBeHidden();
  });

  test('signing in goes back to the page that asked for it', async ({ page }) => {
    // Opened signed out, a car page says why it asks to sign in.
    const car = '/listing/3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';
    await page.goto(car);
    await expect(page).toHaveURL(`/login?next=${car}`);
    await expect(
      page.getByText('Sign in to see this car, book it or ask its seller.'),
    ).toBeVisible();
    // Focus moved to the page's main part for screen readers, without a ring around all of it.
    await expect(page.locator('main')).toBeFocused();
    await expect(page.locator('main')).toHaveCSS('outline-style', 'none');

    await page.goto('/dashboard/my-products');
    await expect(page).toHaveURL('/login?next=/dashboard/my-products');
    await expect(page.getByText('Sign in to open your dashboard.')).toBeVisible();

    await signInThroughPage(page, 'seller@demo.local');
    await expect(page).toHaveURL('/dashboard/my-products');
    await expect(dashboardNav(page).getByRole('link', { name: 'My cars' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('a wrong password is explained at the top of the form', async ({ page }) => {
    // The form's other states (a held address, a deleted or disabled account, focus, showing the
    // password) are in sign-in-form.test.tsx; here the real server's answer reaches the page.
    await page.goto('/login');
    await signInThroughPage(page, uniqueEmail('nobody'), 'not the password');
    await expect(page.getByRole('alert')).toHaveText(
      'That email and password do not match an account.',
    );
    await expect(page).toHaveURL('/login');
  });

  test("the header's Sign in link and Create an account keep the way back through registration (rough edge 5)", async ({
    page,
  }) => {
    const post = '/blog/how-to-inspect-a-used-car';
    await page.goto(post);
    await waitForHydration(page);
    await mainNav(page).getByRole('link', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(post)}`);

    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL(`/register?next=${post}`);
    // Signing in instead keeps it too.
    await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      `/login?next=${post}`,
    );

    await page.getByLabel('Name').fill('Test Reader');
    await page.getByLabel('Account type').selectOption('Buyer');
    await page.getByLabel('Email').fill(uniqueEmail('reader'));
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Registration successful')).toBeVisible();
    await expect(page).toHaveURL(post);
  });

  test("signing in from the header's Sign in link goes back to the page, also on a phone (rough edge 5)", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/blog');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await mainNav(page).getByRole('link', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL('/login?next=%2Fblog');
    await signInThroughPage(page, 'buyer@demo.local');
    await expect(page).toHaveURL('/blog');
  });

  test('a way back to another site is refused, after registering and once signed in (rough edge 5)', async ({
    page,
  }) => {
    // Every form of such an address is refused by safeNextPath (login-path.test.ts); here the
    // register form's move on and the signed-in sign-in page's move on both use it.
    const elsewhere = [
      '//evil.example',
      'https://evil.example',
      '/\\evil.example',
      '/%09/evil.example',
    ];
    await page.goto(`/register?next=${encodeURIComponent(elsewhere[0]!)}`);
    await page.getByLabel('Name').fill('Test Wary');
    await page.getByLabel('Account type').selectOption('Buyer');
    await page.getByLabel('Email').fill(uniqueEmail('wary'));
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Registration successful')).toBeVisible();
    await expect(page).toHaveURL(`${SITE}/`);

    // Signed in, the sign-in page sends people on at once: never to another site either.
    for (const next of elsewhere) {
      await page.goto(`/login?next=${next.startsWith('/%') ? next : encodeURIComponent(next)}`);
      await expect(page).toHaveURL(`${SITE}/`);
    }
  });

  test('a bearer token is kept, and a disabled account is signed out with the reason', async ({
    page,
    request,
  }) => {
    const tokenFetched = page.waitForResponse(
      (response) => response.url().includes('/api/jwt?') && response.ok(),
    );
    const email = await registerThroughPage(page, 'Buyer');
    await tokenFetched;
    await waitForHydration(page);

    // Calls now carry the token.
    const tile = page.getByTestId('category-tile').first();
    const categoryCall = page.waitForRequest((r) => /\/api\/category\/[^/?]+(\?|$)/.test(r.url()));
    await tile.click();
    expect((await categoryCall).headers().authorization).toMatch(/^Bearer \S+$/);

    // An admin removes the account; the next call is refused and the app signs the person out.
    const admin = request;
    await signInApi(admin, 'admin@demo.local');
    const users = (await (
      await admin.get(`/api/all/user?q=${encodeURIComponent(email)}`)
    ).json()) as { _id: string; email: string }[];
    const user = users.find((candidate) => candidate.email === email);
    expect(user).toBeDefined();
    expect((await admin.delete(`/api/user/remove/${user?._id}`, { headers: fromSite })).ok()).toBe(
      true,
    );

    // Still on the category page, without reloading: the app is running, with its token. Its
    // next call to the server is refused and it signs out with the reason: the cars in another
    // order, or a call the header makes on its own (the unread count, when the live stream the
    // deletion ended comes back), whichever comes first. No link is followed meanwhile: a click
    // racing the sign-out's own move to the sign-in page once left the page on a category.
    const reason = page.getByText('This account has been disabled.');
    await page
      .getByLabel('Sort')
      .selectOption('price_asc', { timeout: 5_000 })
      .catch(() => {});
    await expect(reason).toBeVisible();
    // Signed out on the category page, the sign-in page leads back to it.
    await expect(page).toHaveURL(
      /\/login\?next=%2Fcategory%2F[\w-]+|\/login\?next=\/category\/[\w-]+/,
    );
    await expect(mainNav(page).getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
  });

  test('a right password gets in from a browser used before, while its office address is over its limit (rough edge 6)', async ({
    page,
    playwright,
  }) => {
    // Thirty failed sign-ins, each checking a password hash: more than the usual time.
    test.slow();
    // An address of this test's own (the test server trusts X-Forwarded-For), like an office's.
    const office = { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
    await page.context().setExtraHTTPHeaders(office);
    // Signed up, then out, through the API in this browser's own context: signing up leaves the
    // browser a mark of the account (a cookie), as the register form does.
    const { email, password } = await signUpBuyerApi(page.request, 'Oona Office');
    const signOut = await page.request.post('/api/auth/sign-out', { headers: fromSite, data: {} });
    expect(signOut.ok(), await signOut.text()).toBe(true);

    // Colleagues mistype their passwords 30 times: the address has reached its limit.
    const colleagues = await playwright.request.newContext({
      baseURL: SITE,
      extraHTTPHeaders: { ...fromSite, ...office },
    });
    for (let i = 0; i < 30; i += 1) {
      const typo = await colleagues.post('/api/auth/sign-in/email', {
        data: { email: uniqueEmail('colleague'), password: 'mistyped password' },
      });
      expect(typo.status()).toBe(401);
    }
    // A browser that never signed in to the account waits...
    const stranger = await colleagues.post('/api/auth/sign-in/email', {
      data: { email, password },
    });
    expect(stranger.status()).toBe(429);
    await colleagues.dispose();

    // ...the person's own browser gets in with the right password.
    await page.goto('/login');
    await signInThroughPage(page, email, password);
    await expect(page).toHaveURL('/');
    await expect(page.locator('#site-menu a[href="/dashboard"]')).toBeAttached();
  });
});

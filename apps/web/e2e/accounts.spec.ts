import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import { fromSite, otherSession, SITE } from './site';

const DEMO_PASSWORD = 'demo-drive-2026';
const NEW_PASSWORD = 'a long enough password 2026';

type Role = 'Seller' | 'Buyer';

/** Waits until the app has taken over the prerendered page, so its buttons work. */
async function waitForHydration(page: Page) {
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
}

/** An address no other test uses, so tests never share an account. */
function uniqueEmail(kind: string) {
  return `${kind.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const dashboardNav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });

/** Fills in and sends the register form; the page then says so and goes home. */
async function registerThroughPage(page: Page, role: Role, email = uniqueEmail(role)) {
  await page.goto('/register');
  await page.getByLabel('Name').fill(`Test ${role}`);
  await page.getByLabel('Account type').selectOption(role);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Registration successful')).toBeVisible();
  await expect(page).toHaveURL('/');
  return email;
}

/** Signs in with the form of the login page the browser is on. */
async function signInThroughPage(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signInAs(page: Page, email: string) {
  await page.goto('/login');
  await signInThroughPage(page, email);
  await expect(page).toHaveURL('/');
  // Attached rather than visible: on a phone the navbar's links wait behind its menu button.
  await expect(page.locator('#site-menu a[href="/dashboard"]')).toBeAttached();
}

/** An account made by the first step of sign-up only, signed in in the page's browser. */
async function signUpWithoutRole(page: Page) {
  const response = await page.request.post('/api/auth/sign-up/email', {
    data: { name: 'Half Registered', email: uniqueEmail('half'), password: NEW_PASSWORD },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Signs the API request context in as the seeded admin. */
async function adminApi(request: APIRequestContext) {
  const response = await request.post('/api/auth/sign-in/email', {
    data: { email: 'admin@demo.local', password: DEMO_PASSWORD },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return request;
}

test.describe('accounts', () => {
  test('a new Seller registers through the page and gets the seller dashboard', async ({
    page,
  }) => {
    const email = await registerThroughPage(page, 'Seller');

    const nav = mainNav(page);
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0);

    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Test Seller');
    await expect(page.getByRole('main')).toContainText(email);
    await expect(page.getByRole('main')).toContainText('Seller');
    await expect(dashboardNav(page).getByRole('link', { name: 'Add a car' })).toBeVisible();
  });

  test('a new Buyer registers, signs out and signs in again', async ({ page }) => {
    const email = await registerThroughPage(page, 'Buyer');

    await mainNav(page).getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByText('You are signed out.')).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();

    await mainNav(page).getByRole('link', { name: 'Login' }).click();
    await signInThroughPage(page, email, NEW_PASSWORD);
    await expect(page).toHaveURL('/');
    await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
    await expect(dashboardNav(page).getByRole('link', { name: 'My Orders' })).toBeVisible();
  });

  test('the register form explains what is missing, beside each field', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('button', { name: 'Create account' }).click();

    const name = page.getByLabel('Name');
    await expect(name).toBeFocused();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription(/Name is required/);
    await expect(page.getByLabel('Account type')).toHaveAccessibleDescription(
      /Please choose Seller or Buyer/,
    );

    // An email that already has an account is refused by the server, beside the email field.
    await page.getByLabel('Name').fill('Copy Seller');
    await page.getByLabel('Account type').selectOption('Seller');
    await page.getByLabel('Email').fill('seller@demo.local');
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription(/already exists/);
    await expect(page.getByLabel('Email')).toBeFocused();
  });

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
    await page.goto('/login');
    await signInThroughPage(page, uniqueEmail('nobody'), 'not the password');

    const alert = page.getByRole('alert');
    await expect(alert).toHaveText('That email and password do not match an account.');
    await expect(alert).toBeFocused();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await expect(page).toHaveURL('/login');
  });

  test('the password can be shown and hidden', async ({ page }) => {
    await page.goto('/login');
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('secret words');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
  });

  test('Continue with Google is not offered when the server has no Google sign-in (rough edge 4)', async ({
    page,
  }) => {
    // The test server has no Google credentials: once it has said so, there is no button.
    for (const pathname of ['/login', '/register']) {
      const options = page.waitForResponse('**/api/sign-in-options');
      await page.goto(pathname);
      expect(await (await options).json()).toMatchObject({ google: false });
      await expect(page.getByLabel('Email')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Continue with Google' })).toHaveCount(0);
      await expect(page.getByText('or', { exact: true })).toHaveCount(0);
    }
  });

  test('Continue with Google is offered when the server has Google sign-in, and keeps the way back (rough edge 4)', async ({
    page,
  }) => {
    // A server with credentials (its answer stood in for here; the server's own tests cover the
    // real one) gets the button, and Google is asked to send people back to where they were.
    await page.route('**/api/sign-in-options', (route) =>
      route.fulfill({ json: { google: true } }),
    );
    let started: Record<string, unknown> | undefined;
    await page.route('**/api/auth/sign-in/social', async (route) => {
      started = route.request().postDataJSON() as Record<string, unknown>;
      await route.fulfill({ json: { url: `${SITE}/blog`, redirect: true } });
    });
    for (const pathname of ['/register', '/login']) {
      const options = page.waitForResponse('**/api/sign-in-options');
      await page.goto(`${pathname}?next=/blog/how-to-inspect-a-used-car`);
      expect(await (await options).json()).toEqual({ google: true });
      await expect(page.getByText('or', { exact: true })).toBeVisible();
      if (pathname === '/register') {
        await expect(
          page.getByRole('button', { name: 'Continue with Google' }),
        ).toHaveAccessibleDescription('A new account made with Google is a Buyer account.');
      }
    }
    const google = page.getByRole('button', { name: 'Continue with Google' });
    await expect(google).toBeVisible();
    await google.click();
    await expect(page).toHaveURL('/blog');
    expect(started).toMatchObject({
      provider: 'google',
      callbackURL: '/dashboard?google=1&next=%2Fblog%2Fhow-to-inspect-a-used-car',
      errorCallbackURL: '/login?next=/blog/how-to-inspect-a-used-car',
    });
  });

  test("the header's Login link and Create an account keep the way back through registration (rough edge 5)", async ({
    page,
  }) => {
    const post = '/blog/how-to-inspect-a-used-car';
    await page.goto(post);
    await waitForHydration(page);
    await mainNav(page).getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(post)}`);

    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL(`/register?next=${post}`);
    // Signing in instead keeps it too.
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
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

  test("signing in from the header's Login link goes back to the page, also on a phone (rough edge 5)", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/blog');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await mainNav(page).getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL('/login?next=%2Fblog');
    await signInThroughPage(page, 'buyer@demo.local');
    await expect(page).toHaveURL('/blog');
  });

  test('a way back to another site is refused, after signing in and after registering (rough edge 5)', async ({
    page,
  }) => {
    // Registers, signs out, signs in and opens five pages: more than the usual time.
    test.slow();
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

    await mainNav(page).getByRole('button', { name: 'Sign out' }).click();
    await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();
    await page.goto(`/login?next=${encodeURIComponent(elsewhere[1]!)}`);
    await signInThroughPage(page, 'buyer@demo.local');
    await expect(page).toHaveURL(`${SITE}/`);
    // Signed in, the sign-in page sends people on at once: never to another site either.
    for (const next of elsewhere) {
      await page.goto(`/login?next=${next.startsWith('/%') ? next : encodeURIComponent(next)}`);
      await expect(page).toHaveURL(`${SITE}/`);
    }
  });

  test('a buyer sees My Orders and no seller pages', async ({ page }) => {
    await signInAs(page, 'buyer@demo.local');
    await page.goto('/dashboard');
    const menu = dashboardNav(page);
    await expect(menu.getByRole('link', { name: 'My Orders' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Add a car' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'All Users' })).toHaveCount(0);
  });

  test('a seller sees Add a car and My cars, and no My Orders', async ({ page }) => {
    await signInAs(page, 'seller@demo.local');
    await page.goto('/dashboard');
    const menu = dashboardNav(page);
    await expect(menu.getByRole('link', { name: 'Add a car' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'My cars' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'My Orders' })).toHaveCount(0);
  });

  test('an admin sees the user lists and the seller and buyer pages', async ({ page }) => {
    await signInAs(page, 'admin@demo.local');
    await page.goto('/dashboard');
    const menu = dashboardNav(page);
    for (const name of ['All Users', 'All Sellers', 'All Buyers', 'Add a car', 'My Orders']) {
      await expect(menu.getByRole('link', { name })).toBeVisible();
    }
    await menu.getByRole('link', { name: 'All Sellers' }).click();
    await expect(page).toHaveURL('/dashboard/allUser?role=Seller');
    await expect(menu.getByRole('link', { name: 'All Sellers' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(menu.getByRole('link', { name: 'All Users' })).not.toHaveAttribute('aria-current');
  });

  test('a signed-out visit to the dashboard goes to sign in', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/login?next=/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to CarMarket');
  });

  test('a buyer opening an admin page reads that it is not for their account type', async ({
    page,
  }) => {
    await signInAs(page, 'buyer@demo.local');
    await page.goto('/dashboard/allUser');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This page is for administrators',
    );
    await expect(page.getByRole('main')).toContainText('Not for your account type');
    await page.getByRole('link', { name: 'Back to your dashboard' }).click();
    await expect(page).toHaveURL('/dashboard');
  });

  test("the spec's short addresses open the dashboard pages", async ({ page }) => {
    await signInAs(page, 'buyer@demo.local');
    await page.goto('/orders');
    await expect(page).toHaveURL('/dashboard/orders');
    await page.goto('/product');
    await expect(page).toHaveURL('/dashboard/add-product');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This page is for Seller accounts',
    );
  });

  test('on a phone the dashboard menu opens with a button and closes with Escape', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAs(page, 'seller@demo.local');
    await page.goto('/dashboard');

    const open = page.getByRole('button', { name: 'Dashboard menu', exact: true });
    const menuLink = dashboardNav(page).getByRole('link', { name: 'My cars' });
    await expect(menuLink).toBeHidden();
    await open.click();
    await expect(open).toHaveAttribute('aria-expanded', 'true');
    await expect(menuLink).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close the dashboard menu' })).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(menuLink).toBeHidden();
    await expect(open).toBeFocused();

    await open.click();
    await menuLink.click();
    await expect(page).toHaveURL('/dashboard/my-products');
    await expect(menuLink).toBeHidden();

    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
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
    const admin = await adminApi(request);
    const users = (await (
      await admin.get(`/api/all/user?q=${encodeURIComponent(email)}`)
    ).json()) as { _id: string; email: string }[];
    const user = users.find((candidate) => candidate.email === email);
    expect(user).toBeDefined();
    expect((await admin.delete(`/api/user/remove/${user?._id}`, { headers: fromSite })).ok()).toBe(
      true,
    );

    // Back home and into another category without reloading: the app is still running, with
    // its token. Its next call to the server is refused and it signs out with the reason: the
    // category's cars, or a call the header makes on its own (the unread count, when the live
    // stream the deletion ended comes back), whichever comes first.
    await page.goBack();
    const otherTile = page.getByTestId('category-tile').nth(1);
    const reason = page.getByText('This account has been disabled.');
    await expect(otherTile.or(reason).first()).toBeVisible();
    if (await otherTile.isVisible()) await otherTile.click({ timeout: 5_000 }).catch(() => {});
    await expect(reason).toBeVisible();
    // Signed out on the category page, the sign-in page leads back to it; signed out on the home
    // page, it needs no way back (signing in goes home anyway).
    await expect(page).toHaveURL(/\/login(\?next=\/category\/[\w-]+)?$/);
    await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();
  });

  test('an account without a type chooses one on the dashboard', async ({ page }) => {
    // Signed up, but the second step (POST /api/user) never ran: the account has no role.
    await signUpWithoutRole(page);
    await page.goto('/dashboard');
    const card = page.getByRole('region', { name: 'Choose your account type' });
    await expect(card).toBeVisible();
    await expect(dashboardNav(page).getByRole('link', { name: 'My Orders' })).toHaveCount(0);

    await card.getByRole('button', { name: 'Save account type' }).click();
    await expect(card.getByRole('alert')).toHaveText('Please choose Seller or Buyer.');
    await card.getByRole('radio', { name: /Seller/ }).check();
    await card.getByRole('button', { name: 'Save account type' }).click();
    await expect(page.getByText('Your account is now a Seller account.')).toBeVisible();
    await expect(card).toBeHidden();
    await expect(dashboardNav(page).getByRole('link', { name: 'Add a car' })).toBeVisible();
  });

  test('back from Google, a first sign-in becomes a Buyer account', async ({ page }) => {
    // Google itself is not set up in tests; an account without a role stands in for one that
    // Google has just created, and the dashboard finishes the sign-in as it would.
    await signUpWithoutRole(page);
    await page.goto('/dashboard?google=1');
    await expect(page.getByText('You are signed in with Google.')).toBeVisible();
    await expect(page).toHaveURL('/dashboard');
    await expect(dashboardNav(page).getByRole('link', { name: 'My Orders' })).toBeVisible();
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
    const email = await registerThroughPage(page, 'Buyer');
    await mainNav(page).getByRole('button', { name: 'Sign out' }).click();
    await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();

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
      data: { email, password: NEW_PASSWORD },
    });
    expect(stranger.status()).toBe(429);
    await colleagues.dispose();

    // ...the person's own browser gets in with the right password.
    await page.goto('/login');
    await signInThroughPage(page, email, NEW_PASSWORD);
    await expect(page).toHaveURL('/');
    await expect(page.locator('#site-menu a[href="/dashboard"]')).toBeAttached();
  });

  test('a deleted account says until when its address is held, when registering and when signing in (rough edge 13)', async ({
    page,
    playwright,
  }) => {
    const person = await playwright.request.newContext({
      baseURL: SITE,
      extraHTTPHeaders: fromSite,
    });
    const email = uniqueEmail('gone');
    const signUp = await person.post('/api/auth/sign-up/email', {
      data: { name: 'Gone Person', email, password: NEW_PASSWORD },
    });
    expect(signUp.ok(), await signUp.text()).toBe(true);
    await person.dispose();
    const admin = await adminApi(await otherSession(playwright));
    const users = (await (
      await admin.get(`/api/all/user?q=${encodeURIComponent(email)}`)
    ).json()) as { _id: string; email: string }[];
    const gone = users.find((candidate) => candidate.email === email);
    expect((await admin.delete(`/api/user/remove/${gone?._id}`)).ok()).toBe(true);
    await admin.dispose();

    const longDate = (date: Date) =>
      date.toLocaleDateString('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      });
    const today = new Date();
    const freeFrom = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 31),
    );
    const when = `deleted on ${longDate(today)}`;

    await page.goto('/register');
    await page.getByLabel('Name').fill('Gone Person');
    await page.getByLabel('Account type').selectOption('Buyer');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription(
      `An account with this email was ${when}. The address can be used for a new account from ${longDate(freeFrom)}.`,
    );

    await page.goto('/login');
    await signInThroughPage(page, email, NEW_PASSWORD);
    await expect(page.getByRole('alert')).toHaveText(
      `This account was ${when}. Its email address can be used for a new account from ${longDate(freeFrom)}.`,
    );
  });

  test('a reset link that no longer works says so and offers a new one', async ({ page }) => {
    // The reset itself (mail, token, new password) is covered by the server's tests.
    await page.goto('/reset-password?error=INVALID_TOKEN');
    await expect(page.getByRole('alert')).toHaveText(/expired or has already been used/);
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await expect(page).toHaveURL('/forgot-password');
    await expect(page.getByLabel('Email')).toBeVisible();
  });
});

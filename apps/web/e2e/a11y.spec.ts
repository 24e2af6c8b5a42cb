import type { AdminUser, CategorySummary } from '@carmarket/shared';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import {
  addCarApi,
  bookCarApi,
  confirmEmailApi,
  expectNoAxeViolationsWideAndNarrow,
  fromSite,
  otherSession,
  payApi,
  signInApi,
  signUpBuyer,
  signUpBuyerApi,
  signUpSellerApi,
  SITE,
  solidPng,
  waitForHydration,
  waitForMail,
} from './site';

/*
 * Accessibility, in one place: every page state the journeys once checked with axe, each checked
 * here once, at 1280 px and at 390 px. A state is reached as its journey reached it: its data
 * through the API, a page state (an open dialog, a form with errors, a toast) through the page.
 * Each test is one person (the demo accounts' test two), signed in once, going from state to
 * state in one page. A new page state gets its scan here, not in its journey.
 */

/**
 * Where this file's cars go, away from payments.spec.ts's newest Electric cars; each state finds
 * its own cars by name.
 */
const CATEGORY = 'Microbus';
const NEW_PASSWORD = 'a long enough password 2026';

/** Reaches a page state, then checks it with axe on a wide screen and on a phone. */
async function state(page: Page, name: string, reach: () => Promise<void>) {
  await test.step(name, async () => {
    await reach();
    await expectNoAxeViolationsWideAndNarrow(page);
  });
}

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const dashboardNav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });

/** Something for test names and car names that no other run has. */
const uniqueMarker = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The id of the account with this email, as an admin signed in through `admin` finds it. */
async function userIdApi(admin: APIRequestContext, email: string): Promise<string> {
  const response = await admin.get(`/api/all/user?q=${encodeURIComponent(email)}`);
  expect(response.ok(), await response.text()).toBe(true);
  const user = ((await response.json()) as AdminUser[]).find((found) => found.email === email);
  if (!user) throw new Error(`no account ${email}`);
  return user._id;
}

async function adminSession(playwright: Parameters<typeof otherSession>[0]) {
  const admin = await otherSession(playwright);
  await signInApi(admin, 'admin@demo.local');
  return admin;
}

async function categoryId(page: Page, name: string): Promise<string> {
  const categories = (await (await page.request.get('/api/category')).json()) as CategorySummary[];
  return categories.find((category) => category.name === name)!._id;
}

/** The buyer signed in through `request` starts paying, and so holds the car for a while. */
async function holdApi(request: APIRequestContext, bookingId: string) {
  const started = await request.post('/api/create-payment-intent', { data: { bookingId } });
  expect(started.ok(), await started.text()).toBe(true);
  const held = await request.post('/api/payments/hold', { data: { bookingId } });
  expect(held.ok(), await held.text()).toBe(true);
}

async function signInThroughPage(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function fillRegisterForm(page: Page, email: string) {
  await page.getByLabel('Name').fill('Test Person');
  await page.getByLabel('Account type').selectOption('Buyer');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
}

test.describe('accessibility', () => {
  // Each test reaches and checks up to a dozen states: a minute on a machine busy with others.
  test.describe.configure({ timeout: 180_000 });

  test('signed out: the home page, the blog, signing in and registering', async ({
    page,
    playwright,
  }) => {
    const post = '/blog/how-to-inspect-a-used-car';
    await state(page, 'the home page', async () => {
      await page.goto('/');
      await expect(page.getByTestId('category-tile')).toHaveCount(3);
    });
    await state(page, 'the blog', async () => {
      await page.goto('/blog');
      await expect(page.getByRole('link', { name: 'Read all four answers' })).toBeVisible();
    });
    await state(page, 'the blog’s Q&A', async () => {
      await page.goto('/blog/front-end-questions-answered');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/four front-end questions/i);
    });
    await state(page, 'a blog post, taken over by the app', async () => {
      await page.goto(post);
      await waitForHydration(page);
    });
    for (const pathname of ['/login', '/register']) {
      await state(page, `${pathname}, without Continue with Google`, async () => {
        const options = page.waitForResponse('**/api/sign-in-options');
        await page.goto(pathname);
        expect(await (await options).json()).toMatchObject({ google: false });
        await expect(page.getByLabel('Email')).toBeVisible();
      });
    }
    await state(page, 'registering on the way back to a blog post', async () => {
      await page.goto(`/register?next=${post}`);
      await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
        'href',
        `/login?next=${post}`,
      );
    });
    await state(
      page,
      'the register form, saying what is missing and that an address is taken',
      async () => {
        await page.goto('/register');
        await page.getByRole('button', { name: 'Create account' }).click();
        await expect(page.getByLabel('Name')).toHaveAccessibleDescription(/Name is required/);
        await fillRegisterForm(page, 'seller@demo.local');
        await expect(page.getByLabel('Email')).toHaveAccessibleDescription(/already exists/);
      },
    );
    await state(page, 'the sign-in form, after a wrong password', async () => {
      await page.goto('/login');
      await signInThroughPage(page, `nobody-${uniqueMarker()}@example.com`, 'not the password');
      await expect(page.getByRole('alert')).toHaveText(
        'That email and password do not match an account.',
      );
    });
    // A server with Google sign-in (its answer stood in for, as in accounts.spec.ts).
    await page.route('**/api/sign-in-options', (route) =>
      route.fulfill({ json: { google: true } }),
    );
    await state(page, 'the sign-in page, offering Continue with Google', async () => {
      await page.goto(`/login?next=${post}`);
      await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    });
    await page.unroute('**/api/sign-in-options');

    const someone = await otherSession(playwright);
    const { email } = await signUpBuyerApi(someone, 'Lin Link');
    await someone.dispose();
    await state(page, 'the sign-in page, saying a sign-in link is on its way', async () => {
      await page.goto('/login?next=/dashboard/orders');
      await waitForHydration(page);
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Email me a sign-in link instead' }).click();
      await page.getByRole('button', { name: 'Email me a sign-in link', exact: true }).click();
      await expect(page.getByText(/a sign-in link is on its way/)).toBeVisible();
    });

    // An account an admin deleted: its address is held for a while.
    const person = await otherSession(playwright);
    const gone = await signUpBuyerApi(person, 'Gone Person');
    await person.dispose();
    const admin = await adminSession(playwright);
    const removed = await admin.delete(`/api/user/remove/${await userIdApi(admin, gone.email)}`);
    expect(removed.ok(), await removed.text()).toBe(true);
    await admin.dispose();
    await state(
      page,
      'the register form, saying until when a deleted account’s address is held',
      async () => {
        await page.goto('/register');
        await fillRegisterForm(page, gone.email);
        await expect(page.getByLabel('Email')).toHaveAccessibleDescription(
          /An account with this email was deleted on/,
        );
      },
    );
    await state(page, 'the sign-in form, saying the account was deleted', async () => {
      await page.goto('/login');
      await signInThroughPage(page, gone.email, gone.password);
      await expect(page.getByRole('alert')).toHaveText(/^This account was deleted on/);
    });
  });

  test('the demo buyer’s dashboard and the demo seller’s overview', async ({ page }) => {
    await signInApi(page.request, 'buyer@demo.local');
    await state(page, 'the demo buyer’s dashboard', async () => {
      await page.goto('/dashboard');
      await expect(dashboardNav(page).getByRole('link', { name: 'My Orders' })).toBeVisible();
    });
    await page.context().clearCookies();
    await signInApi(page.request, 'seller@demo.local');
    await state(page, 'the demo seller’s overview, with its sales chart', async () => {
      await page.goto('/dashboard');
      await expect(
        page.getByRole('img', { name: /^Your sales over the last 30 days/ }),
      ).toBeVisible({ timeout: 20_000 });
    });
  });

  test('a buyer: My account, a verified seller’s car, saved cars and searches, and a conversation', async ({
    page,
    browser,
    playwright,
  }) => {
    const marker = uniqueMarker();
    // A verified seller's car, advertised on the home page: its badge and its prices.
    const sellerApi = await otherSession(playwright);
    const seller = await signUpSellerApi(sellerApi, `Lena Lot ${marker}`);
    const carName = `Leaf ${marker}`;
    const carId = await addCarApi(sellerApi, carName, {
      category: CATEGORY,
      reprice: 2_450_000,
      orprice: 3_199_900,
      mileageKm: 38_400,
    });
    expect((await sellerApi.put(`/api/listings/${carId}/advertise`)).ok()).toBe(true);
    const admin = await adminSession(playwright);
    const verified = await admin.put(`/api/user/verify/${await userIdApi(admin, seller.email)}`);
    expect(verified.ok(), await verified.text()).toBe(true);
    await admin.dispose();

    const buyer = await signUpBuyer(page, 'Casey Carbuyer');
    await state(page, 'My account', async () => {
      await page.goto('/dashboard/settings');
      await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
    });
    const deleteDialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await state(page, 'My account, asking to confirm deleting the account', async () => {
      await page
        .getByRole('region', { name: 'Delete my account' })
        .getByRole('button', { name: 'Delete my account…' })
        .click();
      await expect(deleteDialog.getByLabel('Your password')).toBeFocused();
    });
    await page.keyboard.press('Escape');
    await expect(deleteDialog).toBeHidden();

    await state(page, 'the home page, with the verified seller’s advertised car', async () => {
      await page.goto('/');
      await waitForHydration(page);
      await expect(
        page
          .getByRole('region', { name: 'Cars on offer now' })
          .getByTestId('advertised-car')
          .filter({ hasText: carName }),
      ).toBeVisible({ timeout: 20_000 });
    });
    await state(page, 'the search page, finding that car', async () => {
      await page.goto(`/cars?q=${encodeURIComponent(carName)}`);
      await expect(page.getByTestId('listing-card').filter({ hasText: carName })).toContainText(
        '$24,500',
        { timeout: 20_000 },
      );
    });
    await state(page, 'the car’s page, just saved, with its toast', async () => {
      await page.goto(`/listing/${carId}`);
      await expect(page.getByRole('heading', { level: 1, name: carName })).toBeVisible({
        timeout: 20_000,
      });
      await page.getByRole('button', { name: new RegExp(`^Save ${carName}`) }).click();
      await expect(toast(page, 'Saved to your cars')).toBeVisible();
    });
    const saved = page.getByTestId('saved-car');
    await state(page, 'Saved cars, with that car, saying why nothing is mailed yet', async () => {
      await page.goto('/dashboard/saved');
      await expect(saved).toHaveCount(1);
      await expect(
        page.getByRole('complementary', { name: 'We are not emailing you yet' }),
      ).toBeVisible();
    });
    await state(page, 'Saved cars, empty', async () => {
      await saved.getByRole('button', { name: /^Remove/ }).click();
      await expect(page.getByText('You have not saved a car yet')).toBeVisible();
    });

    // Alerts go only to confirmed addresses.
    await confirmEmailApi(page.request, buyer.email);
    const word = `quokka${marker}`;
    const searchName = `Toyota ${word}`;
    const saveSearch = page.getByRole('dialog', { name: 'Save this search' });
    await state(page, 'a search that finds nothing, with Save this search open', async () => {
      await page.goto(`/cars?q=${word}&make=Toyota&priceMax=3000000`);
      await expect(page.getByRole('heading', { name: '0 cars' })).toBeVisible();
      await page.getByRole('button', { name: 'Save this search' }).click();
      await expect(saveSearch.getByLabel('Name')).toBeFocused();
    });
    await saveSearch.getByLabel('Name').fill(searchName);
    await saveSearch.getByRole('button', { name: 'Save search' }).click();
    await expect(toast(page, 'Search saved')).toBeVisible();
    // The seller lists a car that matches: the buyer is mailed, and the search counts it as new.
    await addCarApi(sellerApi, `Toyota HiAce ${word}`, {
      category: CATEGORY,
      make: 'Toyota',
      model: 'HiAce',
      reprice: 2_450_000,
      orprice: 2_900_000,
    });
    const mail = await waitForMail(buyer.email, searchName);
    await state(page, 'Saved searches, one with a new car', async () => {
      await page.goto('/dashboard/searches');
      await expect(
        page
          .getByTestId('saved-search')
          .filter({ hasText: searchName })
          .getByText('1 new', { exact: true }),
      ).toBeVisible();
    });
    const stranger = await browser.newContext({ baseURL: SITE, reducedMotion: 'reduce' });
    const tab = await stranger.newPage();
    await state(tab, 'the unsubscribe page, opened from the mail without signing in', async () => {
      const link = new URL(/Stop alerts for this search: (\S+)/.exec(mail.text)![1]!);
      await tab.goto(`${link.pathname}${link.search}`);
      await expect(
        tab.getByRole('heading', { level: 1, name: 'You’re unsubscribed' }),
      ).toBeVisible();
    });
    await stranger.close();

    // The buyer asks about the car and the seller answers.
    const asked = await page.request.post(`/api/listings/${carId}/messages`, {
      headers: fromSite,
      data: { body: 'Has the cambelt been done?' },
    });
    expect(asked.ok(), await asked.text()).toBe(true);
    const { conversationId } = (await asked.json()) as { conversationId: string };
    const answered = await sellerApi.post(`/api/conversations/${conversationId}/messages`, {
      data: { body: 'Yes, at 60,000 miles.' },
    });
    expect(answered.ok(), await answered.text()).toBe(true);
    await state(page, 'a conversation with the seller', async () => {
      await page.goto(`/dashboard/messages/${conversationId}`);
      await expect(page.getByTestId('thread').getByText('Yes, at 60,000 miles.')).toBeVisible();
      await expect(page.getByTestId('composer')).toBeVisible();
    });
    expect((await sellerApi.put(`/api/conversations/${conversationId}/block`)).ok()).toBe(true);
    await sellerApi.dispose();
    await state(page, 'the conversation, the moment the seller blocked the buyer', async () => {
      await expect(page.getByTestId('closed-reason')).toHaveText(
        'The seller has blocked you, so you cannot send them messages.',
      );
    });
  });

  test('a buyer: a booked car, the booking form’s refusals, paying, My Orders and a receipt', async ({
    page,
    context,
    playwright,
  }) => {
    const marker = uniqueMarker();
    const sellerApi = await otherSession(playwright);
    await signUpSellerApi(sellerApi, `Orla Owner ${marker}`);
    const newCar = async (name: string, model: string) => {
      const id = await addCarApi(sellerApi, `VW ${name} ${marker}`, {
        category: CATEGORY,
        make: 'Volkswagen',
        model,
      });
      return { id, name: `VW ${name} ${marker}` };
    };
    const booked = await newCar('Transporter', 'Transporter');
    const notBooked = await newCar('Kombi', 'Transporter');
    const offline = await newCar('Multivan', 'Multivan');
    const paid = await newCar('California', 'Multivan');
    const toPay = await newCar('Caddy', 'Caddy');
    const held = await newCar('Caddy Maxi', 'Caddy');
    const reserved = await newCar('ID. Buzz', 'ID. Buzz');
    const notYours = await newCar('Caddy Life', 'Caddy');
    await sellerApi.dispose();
    const category = await categoryId(page, CATEGORY);

    await signUpBuyer(page, 'Rhea Receipt');
    const cardOf = (name: string) =>
      page
        .getByTestId('listing-card')
        .filter({ has: page.getByRole('heading', { name, exact: true }) });
    await bookCarApi(page.request, booked.id);
    await state(page, 'a car’s page, once the buyer booked it', async () => {
      await page.goto(`/listing/${booked.id}`);
      await waitForHydration(page);
      await expect(page.getByRole('button', { name: 'Book now' })).toHaveAccessibleDescription(
        'You booked this car. See My Orders',
      );
    });
    // Narrowed to its model: a page of every car takes much longer to check, and its cards
    // are the same.
    await state(page, 'its category page, with its card', async () => {
      await page.goto(`/category/${category}?make=Volkswagen&model=Transporter`);
      await expect(
        cardOf(booked.name).getByRole('button', { name: 'Book now' }),
      ).toHaveAccessibleDescription('You booked this car. See My Orders');
    });
    await state(page, 'a search finding it, and a car not booked', async () => {
      await page.goto(`/cars?q=${marker}`);
      await expect(
        cardOf(booked.name).getByRole('button', { name: 'Book now' }),
      ).toHaveAccessibleDescription('You booked this car. See My Orders');
      await expect(cardOf(notBooked.name).getByRole('button', { name: 'Book now' })).toBeVisible();
    });

    const bookingForm = page.getByRole('dialog', { name: /^Book the / });
    const openBookingForm = async (carId: string) => {
      await page.goto(`/listing/${carId}`);
      await waitForHydration(page);
      await page.getByRole('button', { name: 'Book now' }).click();
      await bookingForm.getByLabel('Phone').fill('+1 503 555 0100');
      await bookingForm.getByLabel('Meeting location').fill('Portland, OR');
    };
    await state(
      page,
      'the booking form, refusing a car booked meanwhile in another tab',
      async () => {
        await openBookingForm(notBooked.id);
        await bookCarApi(page.request, notBooked.id);
        await bookingForm.getByRole('button', { name: 'Book now' }).click();
        await expect(bookingForm.getByRole('alert')).toContainText('You already booked this car.');
      },
    );
    await state(page, 'the booking form, offline', async () => {
      await openBookingForm(offline.id);
      await context.setOffline(true);
      await bookingForm.getByRole('button', { name: 'Book now' }).click();
      await expect(bookingForm.getByRole('alert')).toContainText('You’re offline.');
    });
    await context.setOffline(false);

    const transactionId = await payApi(page.request, await bookCarApi(page.request, paid.id));
    const paidRow = page.getByTestId('order-row').filter({ hasText: paid.name });
    await state(page, 'My Orders, with a paid booking', async () => {
      await page.goto('/dashboard/orders');
      await expect(paidRow.getByTestId('transaction-id')).toHaveText(transactionId);
    });
    await state(page, 'the receipt', async () => {
      await paidRow.getByRole('link', { name: `Receipt for the ${paid.name}` }).click();
      await expect(
        page.getByRole('article', { name: 'Receipt' }).getByTestId('receipt-transaction-id'),
      ).toHaveText(transactionId);
    });

    const pay = page.getByRole('button', { name: /^Pay / });
    await state(page, 'the payment form, empty', async () => {
      await page.goto(`/dashboard/payment/${await bookCarApi(page.request, toPay.id)}`);
      await expect(pay).toHaveAccessibleDescription(
        'To pay, enter the card number, the expiry date and the CVC.',
      );
    });
    await state(page, 'the payment form, with an expiry date that has passed', async () => {
      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry (MM/YY)').fill('12/20');
      await page.getByLabel('CVC').fill('123');
      await expect(page.getByText('The expiry date 12/20 has passed.')).toBeVisible();
    });

    // Another buyer pays for cars: one this buyer booked too, then one they did not.
    const rival = await otherSession(playwright);
    await signUpBuyerApi(rival, 'Riley Rival');
    const rivalsFirst = await bookCarApi(rival, held.id);
    const heldBooking = await bookCarApi(page.request, held.id);
    await holdApi(rival, rivalsFirst);
    await state(page, 'the payment page, while another buyer pays', async () => {
      await page.goto(`/dashboard/payment/${heldBooking}`);
      await expect(page.getByRole('alert')).toContainText('Another buyer is paying for this car');
    });
    expect((await rival.post(`/api/booked/${rivalsFirst}/cancel`)).ok()).toBe(true);
    const rivalsSecond = await bookCarApi(rival, reserved.id);
    await holdApi(rival, rivalsSecond);
    await state(page, 'a category page, with a car another buyer is paying for', async () => {
      await page.goto(`/category/${category}?make=Volkswagen&model=ID.%20Buzz`);
      await expect(cardOf(reserved.name).getByText(/^Reserved until \d/)).toBeVisible();
    });
    expect((await rival.post(`/api/booked/${rivalsSecond}/cancel`)).ok()).toBe(true);
    const rivalsThird = await bookCarApi(rival, notYours.id);
    await rival.dispose();
    await state(page, 'another buyer’s payment link', async () => {
      await page.goto(`/dashboard/payment/${rivalsThird}`);
      await expect(
        page.getByRole('region', { name: 'We could not find this booking' }),
      ).toContainText('it may belong to another account');
    });

    // A seller whose account is closed, with a car withdrawn before: both bookings close.
    const closing = await otherSession(playwright);
    const closingSeller = await signUpSellerApi(closing, `Cleo Closing ${marker}`);
    const goneName = `VW Crafter ${marker}`;
    const withdrawnName = `VW Amarok ${marker}`;
    const gone = await addCarApi(closing, goneName, { category: CATEGORY });
    const withdrawn = await addCarApi(closing, withdrawnName, { category: CATEGORY });
    await bookCarApi(page.request, gone);
    await bookCarApi(page.request, withdrawn);
    expect((await closing.post(`/api/listings/${withdrawn}/withdraw`)).ok()).toBe(true);
    await closing.dispose();
    const admin = await adminSession(playwright);
    const closed = await admin.delete(
      `/api/user/remove/${await userIdApi(admin, closingSeller.email)}`,
    );
    expect(closed.ok(), await closed.text()).toBe(true);
    await admin.dispose();
    await state(page, 'My Orders, with bookings closed and why', async () => {
      await page.goto('/dashboard/orders');
      const rows = page.getByTestId('order-row');
      await expect(rows.filter({ hasText: goneName })).toContainText(
        'Closed because the seller’s account was closed',
      );
      await expect(rows.filter({ hasText: withdrawnName })).toContainText(
        'Closed because the seller withdrew it',
      );
    });
  });

  test('a seller: messages, a conversation, and adding a car with a file refused', async ({
    page,
    playwright,
  }) => {
    const marker = uniqueMarker();
    await signUpSellerApi(page.request, `Sam Seller ${marker}`);
    const carName = `Skoda Octavia ${marker}`;
    const carId = await addCarApi(page.request, carName, { category: CATEGORY });
    const buyerApi = await otherSession(playwright);
    await signUpBuyerApi(buyerApi, 'Casey Asker');
    const asked = await buyerApi.post(`/api/listings/${carId}/messages`, {
      data: { body: 'Has the cambelt been done?' },
    });
    expect(asked.ok(), await asked.text()).toBe(true);
    await buyerApi.dispose();

    await state(page, 'Messages, with one unread', async () => {
      await page.goto('/dashboard/messages');
      await expect(dashboardNav(page).getByTestId('menu-unread-badge')).toHaveText('1 unread');
    });
    const thread = page.getByTestId('thread');
    await state(page, 'the conversation, answered', async () => {
      await page.getByTestId('conversation-item').filter({ hasText: carName }).click();
      await expect(thread.getByText('Has the cambelt been done?')).toBeVisible();
      await page.getByTestId('composer').fill('Yes, at 60,000 miles.');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(thread.getByText('Yes, at 60,000 miles.')).toBeVisible();
    });

    // slow.png's upload is held, so that one photo is done and one still going.
    let releaseSlow!: () => void;
    const slowHeld = new Promise<void>((resolve) => (releaseSlow = resolve));
    await page.route('**/api/uploads', async (route) => {
      if (route.request().postDataBuffer()?.includes('slow.png')) await slowHeld;
      await route.continue();
    });
    const photos = page.getByTestId('photo-item');
    const status = page.getByRole('group', { name: 'Photos' }).getByRole('status');
    await state(page, 'Add a car: a file refused, a photo uploaded and one uploading', async () => {
      await page.goto('/dashboard/add-product');
      await waitForHydration(page);
      await page.getByLabel('Add photos').setInputFiles([
        {
          name: 'not-a-photo.jpg',
          mimeType: 'image/jpeg',
          buffer: Buffer.from('Meeting notes, saved with the wrong name.'),
        },
        { name: 'fast.png', mimeType: 'image/png', buffer: solidPng(40, 30, [200, 60, 40]) },
        { name: 'slow.png', mimeType: 'image/png', buffer: solidPng(40, 30, [40, 60, 200]) },
      ]);
      await expect(photos.filter({ hasText: 'not-a-photo.jpg' })).toContainText('Refused:');
      await expect(photos.filter({ hasText: 'Uploaded' })).toHaveCount(1);
      await expect(status).toHaveText(/^Uploading 1 photo\. /);
    });
    releaseSlow();
    await expect(status).toHaveText('slow.png uploaded.');
  });

  test('an admin: removing a car, a seller’s cars, reports and a reported conversation', async ({
    page,
    playwright,
  }) => {
    const marker = uniqueMarker();
    const sellerApi = await otherSession(playwright);
    const seller = await signUpSellerApi(sellerApi, `Rita Removed ${marker}`);
    const first = `Fake Photo EV ${marker}`;
    const second = `Stolen Van ${marker}`;
    const reportedCar = `Skoda Superb ${marker}`;
    const firstId = await addCarApi(sellerApi, first, { category: CATEGORY });
    await addCarApi(sellerApi, second, { category: CATEGORY });
    const reportedId = await addCarApi(sellerApi, reportedCar, { category: CATEGORY });
    // A buyer asks something the seller reports.
    const buyerApi = await otherSession(playwright);
    await signUpBuyerApi(buyerApi, 'Quinn Questioner');
    const asked = await buyerApi.post(`/api/listings/${reportedId}/messages`, {
      data: { body: 'Pay me by gift card and I will come today.' },
    });
    expect(asked.ok(), await asked.text()).toBe(true);
    const { conversationId } = (await asked.json()) as { conversationId: string };
    const reported = await sellerApi.post(`/api/conversations/${conversationId}/report`, {
      data: { reason: 'Asks to pay with gift cards, outside CarMarket.' },
    });
    expect(reported.ok(), await reported.text()).toBe(true);
    await Promise.all([sellerApi.dispose(), buyerApi.dispose()]);

    await signInApi(page.request, 'admin@demo.local');
    const removeDialog = page.getByRole('dialog', { name: `Remove ${first}?` });
    const reasonBox = removeDialog.getByLabel('Reason, for the seller');
    await state(page, 'a car’s page, with Remove car open', async () => {
      await page.goto(`/listing/${firstId}`);
      await expect(page.getByRole('heading', { level: 1, name: first })).toBeVisible();
      await page.getByRole('button', { name: 'Remove car' }).click();
      await expect(reasonBox).toBeFocused();
    });
    await state(page, 'Remove car, asking for the reason', async () => {
      await removeDialog.getByRole('button', { name: 'Remove car' }).click();
      await expect(removeDialog.getByText('Reason is required', { exact: true })).toBeVisible();
    });
    await reasonBox.fill('The photos show a different car.');
    await removeDialog.getByRole('button', { name: 'Remove car' }).click();
    await expect(removeDialog).toBeHidden();

    const cars = page.getByTestId('user-car');
    const onSale = cars.filter({ hasText: second });
    await state(page, 'the seller’s cars, one removed and one on sale', async () => {
      await page.goto(`/dashboard/users/${await userIdApi(page.request, seller.email)}/cars`);
      await expect(cars.filter({ hasText: first })).toContainText('Removed');
      await expect(onSale).toContainText('On sale');
    });
    await state(page, 'the seller’s cars, once the other is removed too', async () => {
      await onSale.getByRole('button', { name: `Remove ${second}` }).click();
      const again = page.getByRole('dialog', { name: `Remove ${second}?` });
      await again.getByLabel('Reason, for the seller').fill('Reported stolen.');
      await again.getByRole('button', { name: 'Remove car' }).click();
      await expect(again).toBeHidden();
      await expect(onSale.getByText('Removed', { exact: true })).toBeVisible({ timeout: 15_000 });
    });

    const report = page.getByTestId('report').filter({ hasText: reportedCar });
    await state(page, 'Reports, with an open report', async () => {
      await page.goto('/dashboard/reports');
      await expect(report.getByText('Open', { exact: true })).toBeVisible();
    });
    await state(page, 'the reported conversation', async () => {
      await report.getByRole('link', { name: 'Read the conversation' }).click();
      await expect(
        page.getByTestId('thread').getByText('Pay me by gift card and I will come today.'),
      ).toBeVisible();
    });
  });
});

import { formatMoney, type CategoryDetail, type CategorySummary } from '@carmarket/shared';
import { expect, test, type Page } from '@playwright/test';

import { fromSite, newCarOnSale, otherSession, signUpBuyer, signUpBuyerApi } from './site';

const DEMO_PASSWORD = 'demo-drive-2026';
/** A card expiry two years ahead, as the card form wants it (MM/YY). */
const FUTURE_EXPIRY = `12/${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;

/** Waits until the app has taken over the prerendered page, so its buttons work. */
async function waitForHydration(page: Page) {
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
}

async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

async function signIn(page: Page, email: string) {
  const response = await page.request.post('/api/auth/sign-in/email', {
    data: { email, password: DEMO_PASSWORD },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** The seeded category at `index` with its cars that can be booked now (newest first). */
async function categoryAt(page: Page, index: number): Promise<CategoryDetail> {
  const categories = (await (await page.request.get('/api/category')).json()) as CategorySummary[];
  const summary = categories[index];
  if (!summary) throw new Error(`No category at ${index}`);
  const detail = await page.request.get(`/api/category/${summary._id}`);
  expect(detail.ok()).toBe(true);
  return (await detail.json()) as CategoryDetail;
}

/**
 * The last car on the first page of a seeded category (Luxury car: no test adds cars there, so
 * it is a seeded one that stays on that page). The tests here that book it run in order.
 */
async function carOf(page: Page, categoryIndex: number) {
  const category = await categoryAt(page, categoryIndex);
  const car = category.listings.at(-1);
  if (!car) throw new Error(`Category ${category.name} has no cars left to book`);
  return { category, car };
}

async function bookThroughApi(page: Page, listingId: string): Promise<string> {
  const response = await page.request.post('/api/category', {
    headers: fromSite,
    data: { listingId, userPhone: '+1 503 555 0100', userLocation: 'Portland, OR' },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { insertedId: string }).insertedId;
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill('');
  await page.getByLabel('Card number').pressSequentially(number.replaceAll(' ', ''));
  await expect(page.getByLabel('Card number')).toHaveValue(number);
  await page.getByLabel('Expiry (MM/YY)').fill('');
  await page.getByLabel('Expiry (MM/YY)').pressSequentially(FUTURE_EXPIRY.replace('/', ''));
  await expect(page.getByLabel('Expiry (MM/YY)')).toHaveValue(FUTURE_EXPIRY);
  await page.getByLabel('CVC').fill('123');
}

test.describe('browse, book and pay', () => {
  test('a buyer opens a category from the home page, books a car and finds it in My Orders', async ({
    page,
    playwright,
  }) => {
    const buyer = await signUpBuyer(page);
    const { category, car } = await newCarOnSale(page, playwright, 'Microbus');

    await page.goto('/');
    await waitForHydration(page);
    await page
      .getByTestId('category-tile')
      .filter({ has: page.getByRole('heading', { name: category.name, exact: true }) })
      .click();
    await expect(page).toHaveURL(`/category/${category._id}`);
    await expect(page.getByRole('heading', { level: 1, name: category.name })).toBeVisible();

    const card = page
      .getByTestId('listing-card')
      .filter({ has: page.getByRole('heading', { name: car.name, exact: true }) });
    await expect(card.getByText(formatMoney(car.reprice, car.currency))).toBeVisible();
    // The photo links to the car's page too (hidden from screen readers: the name is that link).
    await expect(card.locator('img')).toHaveAttribute('alt', /\S/);
    await expect(card.locator('img')).toHaveAttribute('width', /^\d+$/);
    const book = card.getByRole('button', { name: 'Book now' });
    await expect(book).toBeEnabled();

    // The dialog takes focus, closes with Escape and gives focus back.
    await book.click();
    const dialog = page.getByRole('dialog', { name: `Book the ${car.name}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Phone')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(book).toBeFocused();

    await book.click();
    await expect(dialog.getByLabel('Name')).toHaveValue(buyer.name);
    await expect(dialog.getByLabel('Email')).toHaveValue(buyer.email);
    await expect(dialog.getByLabel('Email')).not.toBeEditable();
    await expect(dialog.getByLabel('Price')).toHaveValue(formatMoney(car.reprice, car.currency));
    await dialog.getByRole('button', { name: 'Book now' }).click();
    await expect(dialog.getByText('Phone is required')).toBeVisible();

    await dialog.getByLabel('Phone').fill('+1 503 555 0100');
    await dialog.getByLabel('Meeting location').fill('Portland, OR');
    await dialog.getByRole('button', { name: 'Book now' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Booked' })).toBeVisible();
    await expect(dialog).toBeHidden();

    // Booked once, the card says so rather than offering the form again.
    await expect(book).toBeFocused();
    await expect(book).toHaveAccessibleDescription('You booked this car. See My Orders');
    await book.click({ force: true });
    await expect(dialog).toBeHidden();

    // The spec's short address shows the same page as the dashboard's.
    await page.goto('/orders');
    await expect(page).toHaveURL('/dashboard/orders');
    await expect(page.getByRole('heading', { level: 1, name: 'My Orders' })).toBeVisible();
    const row = page.getByTestId('order-row').filter({ hasText: car.name });
    await expect(row).toContainText(formatMoney(car.reprice, car.currency));
    await expect(row).toContainText('Awaiting payment');
    await expect(row.getByRole('link', { name: /^Pay/ })).toHaveAttribute(
      'href',
      /^\/dashboard\/payment\/[0-9a-f-]{36}$/,
    );
    await expect(row.getByRole('link', { name: car.name, exact: true })).toHaveAttribute(
      'href',
      `/listing/${car._id}`,
    );
  });

  test('a seller sees Book now disabled on their own cars, with the reason, and Your car on its page', async ({
    page,
  }) => {
    await signIn(page, 'seller@demo.local');
    const { category, car } = await carOf(page, 1);

    await page.goto(`/category/${category._id}`);
    const card = page
      .getByTestId('listing-card')
      .filter({ has: page.getByRole('heading', { name: car.name, exact: true }) });
    const book = card.getByRole('button', { name: 'Book now' });
    await expect(book).toBeDisabled();
    await expect(book).toHaveAccessibleDescription('This is your car');
    await expect(card.getByText('This is your car')).toBeVisible();
    await book.click({ force: true });
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The car's own page offers its seller their tools instead (seller-car-page.spec.ts).
    await card.getByRole('link', { name: car.name, exact: true }).click();
    await expect(page).toHaveURL(`/listing/${car._id}`);
    await expect(page.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
    await expect(page.getByRole('link', { name: category.name, exact: true })).toHaveAttribute(
      'href',
      `/category/${category._id}`,
    );
    await expect(page.getByRole('heading', { name: 'Your car' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Book now' })).toHaveCount(0);
  });

  test('a buyer pays with a test card and the booking shows as Paid', async ({ page }) => {
    const buyer = await signUpBuyer(page);
    const { car } = await carOf(page, 1);
    const bookingId = await bookThroughApi(page, car._id);

    await page.goto('/dashboard/orders');
    const row = page.getByTestId('order-row').filter({ hasText: car.name });
    await row.getByRole('link', { name: /^Pay/ }).click();
    await expect(page).toHaveURL(`/dashboard/payment/${bookingId}`);

    await expect(
      page.getByText('Sandbox: use 4242 4242 4242 4242, any future date, any CVC'),
    ).toBeVisible();
    await expect(page.getByLabel('Card number')).toHaveAttribute('autocomplete', 'cc-number');
    await expect(page.getByLabel('Card number')).toHaveAttribute('inputmode', 'numeric');
    await expect(page.getByLabel('Name on card')).toHaveValue(buyer.name);
    await expect(page.getByLabel('Email for the receipt')).toHaveValue(buyer.email);
    const pay = page.getByRole('button', { name: `Pay ${formatMoney(car.reprice, car.currency)}` });
    await expect(pay).toBeDisabled();

    await fillCard(page, '4242 4242 4242 4242');
    await expect(pay).toBeEnabled();
    await pay.click();

    await expect(
      page.getByRole('heading', { name: 'Congrats! Your payment is complete' }),
    ).toBeVisible();
    await expect(page.getByTestId('transaction-id')).toHaveText(/^pi_\w+$/);

    await page.getByRole('link', { name: 'Go to My Orders' }).click();
    await expect(page).toHaveURL('/dashboard/orders');
    await expect(row.getByText('Paid').first()).toBeVisible();
    await expect(row.getByRole('link', { name: /^Pay/ })).toHaveCount(0);
  });

  test('a declined card shows the processor’s message and lets the buyer try again', async ({
    page,
    playwright,
  }) => {
    await signUpBuyer(page);
    const { car } = await newCarOnSale(page, playwright, 'Electric car');
    const bookingId = await bookThroughApi(page, car._id);

    // Hold the card confirmation until the page has shown that it is processing.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/payments/sandbox/confirm', async (route) => {
      await released;
      await route.continue();
    });

    await page.goto(`/dashboard/payment/${bookingId}`);
    await fillCard(page, '4000 0000 0000 0002');
    const pay = page.getByRole('button', { name: /^Pay \$/ });
    await pay.click();
    const processing = page.getByRole('button', { name: 'Processing…' });
    await expect(processing).toBeDisabled();
    release();

    const error = page.getByRole('alert').filter({ hasText: 'Your card was declined.' });
    await expect(error).toBeVisible();
    await expect(error).toHaveCSS('color', 'rgb(180, 35, 35)');
    await expect(pay).toBeEnabled();
    await expect(pay).toBeFocused();
  });

  test('a car another buyer is paying for shows "Reserved until" on its page, and cannot be held', async ({
    page,
    playwright,
  }) => {
    // Another buyer, in a session of their own, opens the payment page and sends the card form.
    const other = await otherSession(playwright);
    await signUpBuyerApi(other, 'Riley Rival');
    await signUpBuyer(page);
    const { category, car } = await newCarOnSale(page, playwright, 'Microbus');
    const booked = await other.post('/api/category', {
      data: { listingId: car._id, userPhone: '+1 503 555 0199', userLocation: 'Salem, OR' },
    });
    const { insertedId: rivalBooking } = (await booked.json()) as { insertedId: string };
    const bookingId = await bookThroughApi(page, car._id);
    expect(
      (await other.post('/api/create-payment-intent', { data: { bookingId: rivalBooking } })).ok(),
    ).toBe(true);
    // Opening the page held nothing yet. (Only this car's own note counts: a similar car shown
    // below may be held by another test's buyer, and its card says "Reserved until" too.)
    await page.goto(`/listing/${car._id}`);
    await expect(page.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
    await expect(page.getByText(/^Reserved.*: another buyer is paying$/)).toHaveCount(0);

    const held = await other.post('/api/payments/hold', { data: { bookingId: rivalBooking } });
    expect(held.ok()).toBe(true);
    const { reservedUntil } = (await held.json()) as { reservedUntil: string };
    const time = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' }).format(
      new Date(reservedUntil),
    );
    await page.reload();
    await expect(page.getByText(`Reserved until ${time}: another buyer is paying`)).toBeVisible();
    await page.goto(`/category/${category._id}`);
    await expect(
      page
        .getByTestId('listing-card')
        .filter({ hasText: car.name })
        .getByText(`Reserved until ${time}`),
    ).toBeVisible();

    // This buyer booked it too; their payment page says when to try again, and charges nothing.
    await page.goto(`/dashboard/payment/${bookingId}`);
    await expect(page.getByText('Another buyer is paying for this car')).toBeVisible();
    await expect(page.getByText(`it may be free again at ${time}`)).toBeVisible();

    // The rival cancels: the hold ends at once, and this buyer can pay.
    expect((await other.post(`/api/booked/${rivalBooking}/cancel`)).ok()).toBe(true);
    await other.dispose();
    await page.getByRole('button', { name: 'Check again' }).click();
    await expect(page.getByLabel('Card number')).toBeVisible();
  });

  test('the category page shows three columns of cars on a large screen', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signUpBuyer(page);
    const category = await categoryAt(page, 0);

    await page.goto(`/category/${category._id}`);
    const cards = page.getByTestId('listing-card');
    await expect(cards.nth(2)).toBeVisible();
    const [first, second, third] = await Promise.all(
      [0, 1, 2].map(async (index) => (await cards.nth(index).boundingBox())!),
    );
    expect(second!.y).toBe(first!.y);
    expect(third!.y).toBe(first!.y);
    expect(second!.x).toBeGreaterThan(first!.x + first!.width);
    expect(third!.x).toBeGreaterThan(second!.x + second!.width);
  });

  test('the category page on a phone shows one column and no sideways scrolling', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUpBuyer(page);
    const category = await categoryAt(page, 0);

    await page.goto(`/category/${category._id}`);
    const cards = page.getByTestId('listing-card');
    await expect(cards.nth(1)).toBeVisible();
    const first = await cards.nth(0).boundingBox();
    const second = await cards.nth(1).boundingBox();
    expect(first && second).toBeTruthy();
    expect(second!.x).toBe(first!.x);
    expect(second!.y).toBeGreaterThanOrEqual(first!.y + first!.height);
    expect(first!.width).toBeGreaterThan(300);
    await expectNoHorizontalScroll(page);
  });
});

import { formatMoney, type CategoryDetail, type CategorySummary } from '@carmarket/shared';
import { expect, test, type Page } from '@playwright/test';

import { fromSite, newCarOnSale, otherSession, signUpBuyer, signUpBuyerApi } from './site';

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
    await signUpBuyer(page);
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

    // The form's words and refusals: booking-form.test.tsx.
    await book.click();
    await dialog.getByLabel('Phone').fill('+1 503 555 0100');
    await dialog.getByLabel('Meeting location').fill('Portland, OR');
    await dialog.getByRole('button', { name: 'Book now' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Booked' })).toBeVisible();
    await expect(dialog).toBeHidden();

    // Booked once, the card says so rather than offering the form again (booking-form.test.tsx).
    await expect(book).toBeFocused();
    await expect(book).toHaveAccessibleDescription('You booked this car. See My Orders');

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
    // The car's page, from the order, leads back to its category.
    await row.getByRole('link', { name: car.name, exact: true }).click();
    await expect(page).toHaveURL(`/listing/${car._id}`);
    await expect(page.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
    await expect(page.getByRole('link', { name: category.name, exact: true })).toHaveAttribute(
      'href',
      `/category/${category._id}`,
    );
  });

  test('a buyer pays with a test card and the booking shows as Paid', async ({ page }) => {
    const buyer = await signUpBuyer(page);
    const { car } = await carOf(page, 1);
    const bookingId = await bookThroughApi(page, car._id);

    await page.goto('/dashboard/orders');
    const row = page.getByTestId('order-row').filter({ hasText: car.name });
    await row.getByRole('link', { name: /^Pay/ }).click();
    await expect(page).toHaveURL(`/dashboard/payment/${bookingId}`);

    // The form's states (a grey Pay button and why, a declined card): sandbox-payment-form.test.tsx.
    await expect(page.getByLabel('Name on card')).toHaveValue(buyer.name);
    const pay = page.getByRole('button', { name: `Pay ${formatMoney(car.reprice, car.currency)}` });
    await fillCard(page, '4242 4242 4242 4242');
    await expect(pay).toBeEnabled();
    await pay.click();

    await expect(
      page.getByRole('heading', { name: 'Congrats! Your payment is complete' }),
    ).toBeVisible();
    await expect(page.getByTestId('transaction-id')).toHaveText(/^pi_\w+$/);
    // The money waits for the hand-over, and says until when (decision 037).
    const note = page.getByTestId('handover-note');
    await expect(note).toHaveText(
      /^Your money waits with us until you confirm the hand-over in My Orders, or is released to the seller automatically on \w{3} \d{1,2}, \d{4}, .+ unless you report a problem there first\.$/,
    );
    await expect(note.getByRole('link', { name: 'My Orders' })).toHaveAttribute(
      'href',
      '/dashboard/orders',
    );

    await page.getByRole('link', { name: 'Go to My Orders' }).click();
    await expect(page).toHaveURL('/dashboard/orders');
    await expect(row.getByText('Paid').first()).toBeVisible();
    await expect(row.getByRole('link', { name: /^Pay/ })).toHaveCount(0);

    // The seller is to be in touch about the hand-over; the buyer may write first (issue 51).
    await row.getByRole('button', { name: `Message the seller of the ${car.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `about the ${car.name}` });
    await dialog.getByLabel('Your message').fill('When can I collect the car?');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(page).toHaveURL(/\/dashboard\/messages\/[\w-]+$/);
    await expect(page.getByTestId('thread').getByText('When can I collect the car?')).toBeVisible();
    await expect(page.getByTestId('composer')).toBeEditable();
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
    // Only that: no card form, and no promise to hold it (rough edge 2).
    await page.goto(`/dashboard/payment/${bookingId}`);
    const notice = page.getByRole('alert');
    await expect(notice).toContainText('Another buyer is paying for this car');
    await expect(notice).toContainText(`it may be free again at ${time}`);
    await expect(page.getByText(/held for you/)).toHaveCount(0);
    await expect(page.getByLabel('Card number')).toHaveCount(0);

    // The rival cancels: the hold ends at once, and this buyer can pay.
    expect((await other.post(`/api/booked/${rivalBooking}/cancel`)).ok()).toBe(true);
    await other.dispose();
    await page.getByRole('button', { name: 'Check again' }).click();
    await expect(page.getByLabel('Card number')).toBeVisible();
    await expect(page.getByText(/When you press Pay, the car is held for you/)).toBeVisible();
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

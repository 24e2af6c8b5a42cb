import type { Booking, CategorySummary, ListingDetail } from '@carmarket/shared';
import { formatMoney } from '@carmarket/shared';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';

import {
  bookCarApi,
  fromSite,
  otherSession,
  payApi,
  signInApi,
  signUpBuyer,
  waitForMail,
} from './site';

// Each test opens a few signed-in pages (their code, then their data): on a machine shared with
// other runs one can take longer than the usual 7 s.
const expect = baseExpect.configure({ timeout: 20_000 });

const DEMO_PASSWORD = 'demo-drive-2026';
const PHONE = '+1 503 555 0100';
const MEETING = 'Portland, OR';

type Playwright = Parameters<typeof otherSession>[0];

/** Waits until the app has taken over the prerendered page, so its buttons work. */
async function waitForHydration(page: Page) {
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
}

/** A new Seller account in a session of its own, with a name that says which test made it. */
async function newSeller(playwright: Playwright) {
  const seller = await otherSession(playwright);
  const marker = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const name = `Orla Owner ${marker}`;
  const email = `seller-${marker}@example.com`;
  const signUp = await seller.post('/api/auth/sign-up/email', {
    data: { name, email, password: 'long-enough-password-2026' },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const role = await seller.post('/api/user', { data: { name, email, role: 'Seller' } });
  expect(role.ok(), await role.text()).toBe(true);
  return { seller, name, email, marker };
}

/**
 * A new car of `seller`'s, on sale in Microbus: no other test books or buys it. Its photo is a
 * demo car's, uploaded again by the seller (a car shows only photos its seller uploaded).
 */
async function newCar(page: Page, seller: APIRequestContext, name: string) {
  const categories = (await (await page.request.get('/api/category')).json()) as CategorySummary[];
  const microbus = categories.find((category) => category.name === 'Microbus')!;
  const demo = (await (await page.request.get(`/api/category/${microbus._id}`)).json()) as {
    listings: Array<{ _id: string }>;
  };
  const detail = (await (
    await page.request.get(`/api/listings/${demo.listings[0]!._id}`)
  ).json()) as ListingDetail;
  const photo = await page.request.get(detail.images[0]!.url);
  expect(photo.ok()).toBe(true);
  const upload = await seller.post('/api/uploads', {
    multipart: {
      image: { name: 'van.webp', mimeType: 'image/webp', buffer: await photo.body() },
    },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  const { data: uploaded } = (await upload.json()) as { data: { url: string } };
  const created = await seller.post('/api/product?name=Microbus', {
    data: {
      name,
      make: 'Volkswagen',
      model: 'Transporter',
      reprice: 2_345_000,
      orprice: 2_600_000,
      location: 'Eugene, OR',
      year: 2019,
      condition: 'Good',
      describe: 'Nine seats, new tyres, one careful owner.',
      images: [uploaded.url],
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { insertedId } = (await created.json()) as { insertedId: string };
  return { _id: insertedId, name, categoryId: microbus._id, reprice: 2_345_000 };
}

async function myBookings(page: Page, email: string): Promise<Booking[]> {
  const response = await page.request.get(`/api/booked?email=${encodeURIComponent(email)}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as Booking[];
}

test.describe('My Orders, booking and receipts', () => {
  // Each test opens a few signed-in pages, each given 20 s (above).
  test.describe.configure({ timeout: 60_000 });

  test('a buyer who booked a car is told so on its page and cards, not by the form (rough edge 7)', async ({
    page,
    playwright,
  }) => {
    await signUpBuyer(page);
    const { seller, marker } = await newSeller(playwright);
    const car = await newCar(page, seller, `VW Transporter ${marker}`);
    const other = await newCar(page, seller, `VW Caravelle ${marker}`);
    await seller.dispose();
    await bookCarApi(page.request, car._id);

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/listing/${car._id}`);
      await waitForHydration(page);
      await expect(page.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
      const book = page.getByRole('button', { name: 'Book now' });
      await expect(book).toHaveAccessibleDescription('You booked this car. See My Orders');
      await expect(book).toHaveAttribute('aria-disabled', 'true');
      await book.click({ force: true });
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'See My Orders' })).toHaveAttribute(
        'href',
        '/dashboard/orders',
      );
    }

    // The cards of the category and search pages say the same; the car not booked can be.
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const path of [`/category/${car.categoryId}`, `/cars?q=${marker}`]) {
      await page.goto(path);
      const card = page
        .getByTestId('listing-card')
        .filter({ has: page.getByRole('heading', { name: car.name, exact: true }) });
      await expect(card).toBeVisible();
      await expect(card.getByRole('button', { name: 'Book now' })).toHaveAccessibleDescription(
        'You booked this car. See My Orders',
      );
      const otherCard = page
        .getByTestId('listing-card')
        .filter({ has: page.getByRole('heading', { name: other.name, exact: true }) });
      await expect(otherCard.getByRole('button', { name: 'Book now' })).not.toHaveAttribute(
        'aria-disabled',
      );
    }
  });

  test('a car booked meanwhile in another tab: the form’s refusal links to My Orders (rough edge 7)', async ({
    page,
    playwright,
  }) => {
    const buyer = await signUpBuyer(page);
    const { seller, marker } = await newSeller(playwright);
    const other = await newCar(page, seller, `VW Caravelle ${marker}`);
    await seller.dispose();

    await page.goto(`/listing/${other._id}`);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Book now' }).click();
    const dialog = page.getByRole('dialog', { name: `Book the ${other.name}` });
    await dialog.getByLabel('Phone').fill(PHONE);
    await dialog.getByLabel('Meeting location').fill(MEETING);
    await bookCarApi(page.request, other._id);
    await dialog.getByRole('button', { name: 'Book now' }).click();
    const refusal = dialog.getByRole('alert');
    await expect(refusal).toContainText('You already booked this car.');
    await refusal.getByRole('link', { name: 'See My Orders' }).click();
    await expect(page).toHaveURL('/dashboard/orders');
    await expect(page.getByTestId('order-row').filter({ hasText: other.name })).toContainText(
      'Awaiting payment',
    );
    expect(
      (await myBookings(page, buyer.email)).filter((b) => b.listingId === other._id),
    ).toHaveLength(1);
  });

  test('booking offline says so at once, offers to try again, and a retry never books twice (rough edge 8)', async ({
    page,
    context,
    playwright,
  }) => {
    const buyer = await signUpBuyer(page);
    const { seller, marker } = await newSeller(playwright);
    const car = await newCar(page, seller, `VW Multivan ${marker}`);
    await seller.dispose();
    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/category') {
        keys.push(request.headers()['idempotency-key'] ?? '');
      }
    });

    await page.goto(`/listing/${car._id}`);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Book now' }).click();
    const dialog = page.getByRole('dialog', { name: `Book the ${car.name}` });
    await dialog.getByLabel('Phone').fill(PHONE);
    await dialog.getByLabel('Meeting location').fill(MEETING);

    await context.setOffline(true);
    await dialog.getByRole('button', { name: 'Book now' }).click();
    const alert = dialog.getByRole('alert');
    // At once, not after a timeout: the browser knows it is offline.
    await expect(alert).toContainText('You’re offline.');
    await expect(alert).toBeFocused();
    await expect(dialog.getByRole('button', { name: 'Book now' })).toBeEnabled();

    // Back online, the booking goes through but its answer is lost on the way back.
    await context.setOffline(false);
    let booked = 0;
    await page.route('**/api/category', async (route) => {
      booked += 1;
      await route.fetch();
      await route.abort('internetdisconnected');
    });
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(dialog.getByRole('alert')).toContainText('We could not reach CarMarket.');
    expect(booked).toBe(1);
    await page.unrouteAll();

    // Trying again answers the booking that was made, and makes no second one.
    await dialog.getByRole('alert').getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Booked' })).toBeVisible();
    await expect(dialog).toBeHidden();
    const mine = (await myBookings(page, buyer.email)).filter((b) => b.listingId === car._id);
    expect(mine.map((b) => b.status)).toEqual(['pending']);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[\w-]{8,}$/);
    await expect(page.getByRole('button', { name: 'Book now' })).toHaveAccessibleDescription(
      'You booked this car. See My Orders',
    );
  });

  test('My Orders shows a paid booking as Paid once, with its transaction id and a printable receipt (rough edge 10)', async ({
    page,
    playwright,
  }) => {
    const buyer = await signUpBuyer(page, 'Rhea Receipt');
    const { seller, name: sellerName, marker } = await newSeller(playwright);
    const car = await newCar(page, seller, `VW California ${marker}`);
    await seller.dispose();
    const bookingId = await bookCarApi(page.request, car._id);
    const transactionId = await payApi(page.request, bookingId);
    const price = formatMoney(car.reprice, 'USD');

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/dashboard/orders');
    const row = page.getByTestId('order-row').filter({ hasText: car.name });
    await expect(row.getByText('Paid', { exact: true })).toHaveCount(1);
    await expect(row.getByTestId('transaction-id')).toHaveText(transactionId);

    await page.setViewportSize({ width: 390, height: 844 });
    const card = page.getByTestId('order-card').filter({ hasText: car.name });
    await expect(card.getByText('Paid', { exact: true })).toHaveCount(1);
    await expect(card.getByTestId('transaction-id')).toHaveText(transactionId);

    await page.setViewportSize({ width: 1280, height: 900 });
    await row.getByRole('link', { name: `Receipt for the ${car.name}` }).click();
    await expect(page).toHaveURL(`/dashboard/receipt/${bookingId}`);
    const receipt = page.getByRole('article', { name: 'Receipt' });
    await expect(receipt.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
    await expect(receipt.getByRole('link', { name: car.name })).toHaveAttribute(
      'href',
      `/listing/${car._id}`,
    );
    await expect(receipt).toContainText(sellerName);
    await expect(receipt).toContainText(buyer.name);
    await expect(receipt).toContainText(price);
    await expect(receipt.getByTestId('receipt-transaction-id')).toHaveText(transactionId);
    const today = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date());
    await expect(receipt).toContainText(today);
    await expect(page).toHaveTitle('Receipt | CarMarket');

    // Printed: the receipt alone, without the site's header, menus and buttons.
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: 794, height: 1123 });
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print receipt' })).toBeHidden();
    await expect(page.getByRole('contentinfo')).toBeHidden();
    await expect(receipt).toBeVisible();
    await page.emulateMedia({ media: 'screen' });

    // Nobody else has this receipt, not even the seller.
    const stranger = await otherSession(playwright);
    const signIn = await stranger.post('/api/auth/sign-in/email', {
      data: { email: 'buyer@demo.local', password: DEMO_PASSWORD },
    });
    expect(signIn.ok()).toBe(true);
    expect((await stranger.get(`/api/booked/${bookingId}/receipt`)).status()).toBe(404);
    await stranger.dispose();
    await page.context().clearCookies();
    await signUpBuyer(page, 'Nosy Neighbour');
    await page.goto(`/dashboard/receipt/${bookingId}`);
    await expect(
      page.getByRole('heading', { level: 1, name: 'We could not find this receipt' }),
    ).toBeVisible();
  });

  test('a receipt refunded after a dispute says so, and no longer promises a hand-over', async ({
    page,
    browser,
    playwright,
  }) => {
    await signUpBuyer(page, 'Rosa Refund');
    const { seller, marker } = await newSeller(playwright);
    const car = await newCar(page, seller, `VW Multivan ${marker}`);
    await seller.dispose();
    const bookingId = await bookCarApi(page.request, car._id);
    await payApi(page.request, bookingId);
    const reported = await page.request.post(`/api/booked/${bookingId}/dispute`, {
      headers: fromSite,
      data: { reason: 'The seller sold the van to someone else.' },
    });
    expect(reported.ok(), await reported.text()).toBe(true);
    const { handover } = (await reported.json()) as Booking;
    const admin = await otherSession(playwright);
    await signInApi(admin, 'admin@demo.local');
    const ruled = await admin.post(`/api/disputes/${handover!.disputeId}/resolve`, {
      data: { outcome: 'refund', note: 'The van was not handed over.' },
    });
    expect(ruled.ok(), await ruled.text()).toBe(true);
    await admin.dispose();

    await page.goto(`/dashboard/receipt/${bookingId}`);
    const receipt = page.getByRole('article', { name: 'Receipt' });
    const today = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date());
    await expect(receipt.getByTestId('receipt-refunded')).toHaveText(
      new RegExp(`^Refunded on ${today} at \\d{1,2}:\\d{2} [AP]M$`),
    );
    await expect(receipt).toContainText('refunded to that card after the problem you reported');
    await expect(receipt).not.toContainText('hand over');

    // The audit log says it in words, with the car's name.
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await signInApi(adminPage.request, 'admin@demo.local');
    await adminPage.goto('/dashboard/audit');
    const rows = adminPage.getByTestId('audit-row').filter({ hasText: car.name });
    await expect(
      rows.filter({
        hasText: `Dispute ruled: ${formatMoney(car.reprice, 'USD')} refunded to the buyer`,
      }),
    ).toHaveCount(1);
    await expect(
      rows.filter({ hasText: 'Problem reported: money kept until a ruling' }),
    ).toHaveCount(1);
    await adminContext.close();
  });

  test('a closed booking says why it closed, as the mail did: the seller’s account was closed (rough edge 12)', async ({
    page,
    playwright,
  }) => {
    const buyer = await signUpBuyer(page);
    const { seller, email: sellerEmail, marker } = await newSeller(playwright);
    const gone = await newCar(page, seller, `VW Crafter ${marker}`);
    const withdrawn = await newCar(page, seller, `VW Kombi ${marker}`);
    await bookCarApi(page.request, gone._id);
    await bookCarApi(page.request, withdrawn._id);
    expect((await seller.post(`/api/listings/${withdrawn._id}/withdraw`)).ok()).toBe(true);
    await seller.dispose();

    const admin = await otherSession(playwright);
    const signIn = await admin.post('/api/auth/sign-in/email', {
      data: { email: 'admin@demo.local', password: DEMO_PASSWORD },
    });
    expect(signIn.ok()).toBe(true);
    const found = (await (
      await admin.get(`/api/all/user?role=Seller&q=${encodeURIComponent(sellerEmail)}`)
    ).json()) as Array<{ _id: string; email: string }>;
    const sellerId = found.find((person) => person.email === sellerEmail)!._id;
    expect((await admin.delete(`/api/user/remove/${sellerId}`)).ok()).toBe(true);
    await admin.dispose();

    const mail = await waitForMail(buyer.email, `${gone.name} is no longer available`);
    expect(mail.text).toContain('because the seller’s account was closed');

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/dashboard/orders');
      const entry = page.getByTestId(width > 700 ? 'order-row' : 'order-card');
      await expect(entry.filter({ hasText: gone.name })).toContainText(
        'Closed because the seller’s account was closed',
      );
      await expect(entry.filter({ hasText: withdrawn.name })).toContainText(
        'Closed because the seller withdrew it',
      );
      await expect(page.getByText('sold to someone else or taken off sale')).toHaveCount(0);
    }
  });
});

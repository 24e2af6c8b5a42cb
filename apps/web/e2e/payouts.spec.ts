import { formatMoney, type Booking } from '@carmarket/shared';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';

import {
  addCarApi,
  bookCarApi,
  dashboardNav,
  fromSite,
  otherSession,
  payApi,
  signInApi,
  signUpBuyer,
  signUpBuyerApi,
  signUpSellerApi,
  uniqueMarker,
  waitForHydration,
} from './site';

/*
 * Hand-over, payouts and disputes (issue 35): a buyer confirms they have the car, a seller adds a
 * payout account and is paid, an admin refunds a buyer who reported a problem. People, cars,
 * bookings and payments are made through the API; what each test is about, through the page.
 */

// Each test opens a few signed-in pages: on a machine shared with other runs one can take longer.
const expect = baseExpect.configure({ timeout: 20_000 });

type Playwright = Parameters<typeof otherSession>[0];

/** A car of a new seller's (in a session of its own, closed after), on sale in Microbus. */
async function carOfNewSeller(playwright: Playwright, name: string) {
  const seller = await otherSession(playwright);
  const account = await signUpSellerApi(seller, `Orla Owner ${uniqueMarker()}`);
  const carId = await addCarApi(seller, name, { category: 'Microbus' });
  await seller.dispose();
  return { carId, seller: account };
}

async function bookingOf(request: APIRequestContext, bookingId: string): Promise<Booking> {
  const response = await request.get(`/api/booked/${bookingId}`);
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as Booking;
}

/** My Orders' row of a car (the table, at the tests' 1280 px). */
const orderRow = (page: Page, carName: string) =>
  page.getByTestId('order-row').filter({ hasText: carName });

test.describe('hand-over, payouts and disputes', () => {
  // Two or three people, each with their own pages: more than the default half minute on a
  // machine busy with other runs.
  test.describe.configure({ timeout: 90_000 });

  test('a buyer confirms hand-over in My Orders and sees it handed over', async ({
    page,
    playwright,
  }) => {
    const carName = `VW Transporter ${uniqueMarker()}`;
    const { carId, seller } = await carOfNewSeller(playwright, carName);
    await signUpBuyer(page, 'Hana Handover');
    const bookingId = await bookCarApi(page.request, carId);
    await payApi(page.request, bookingId);
    const { handover, currency } = await bookingOf(page.request, bookingId);
    expect(handover?.state).toBe('awaiting-handover');

    await page.goto('/dashboard/orders');
    await waitForHydration(page);
    const row = orderRow(page, carName);
    const status = row.getByTestId('handover-status');

    await row.getByRole('button', { name: `Confirm hand-over of the ${carName}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm hand-over?' });
    // Released, not "paid": the seller may have no payout account yet.
    await expect(dialog).toContainText(
      `The money is then released to ${seller.name} (${formatMoney(handover!.sellerCents, currency)} after our fee).`,
    );
    await expect(dialog).toContainText('This cannot be undone');
    // Focus starts on the button that changes nothing.
    await expect(dialog.getByRole('button', { name: 'Not yet' })).toBeFocused();
    const confirmations: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/${bookingId}/handover`)) {
        confirmations.push(request.url());
      }
    });
    // A double click sends it once.
    await dialog.getByRole('button', { name: 'Confirm hand-over' }).dblclick();

    await expect(dialog).toBeHidden();
    await expect(
      page.getByText(`Hand-over confirmed: the money is released to ${seller.name}.`),
    ).toBeVisible();
    await expect(status).toHaveText(/^Handed over on \w{3} \d{1,2}, \d{4}\.$/);
    await expect(status).toBeFocused();
    expect(confirmations).toHaveLength(1);
    await expect(
      row.getByRole('button', { name: /Confirm hand-over|Report a problem/ }),
    ).toHaveCount(0);
    expect((await bookingOf(page.request, bookingId)).handover).toMatchObject({
      state: 'released',
      releasedBy: 'buyer',
    });
  });

  test('back from the provider before it has confirmed the account, the page waits and says so (390 px)', async ({
    page,
  }) => {
    await signUpSellerApi(page.request, `Quinn Quick ${uniqueMarker()}`);
    // The server asks the provider once a minute: the first answers still say it is being set up.
    let asked = 0;
    await page.route('**/api/my/payout-account', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      asked += 1;
      await route.fulfill({
        json: { status: asked < 3 ? 'onboarding' : 'ready', provider: 'stripe' },
      });
    });
    // On a phone: the long "Finish setting up your payout account" wraps, the page keeps its width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard/payouts?account=done');
    await expect(page.getByText('You began adding your payout account')).toBeVisible();
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBe(0);
    await expect(
      page.getByRole('status').filter({ hasText: 'Asking our payment provider' }),
    ).toBeVisible();
    await expect(
      page.getByRole('status').filter({ hasText: 'payout account is set up' }),
    ).toBeVisible();
    await expect(page.getByText('Payouts go to your account')).toBeVisible();
    await expect(page.getByText('Asking our payment provider')).toHaveCount(0);
    expect(asked).toBe(3);
  });

  test('a seller sees their balance, adds a payout account and sees the payout', async ({
    page,
    playwright,
  }) => {
    const marker = uniqueMarker();
    const carName = `VW Multivan ${marker}`;
    await signUpSellerApi(page.request, `Pia Payee ${marker}`);
    const carId = await addCarApi(page.request, carName, { category: 'Microbus' });
    const buyer = await otherSession(playwright);
    await signUpBuyerApi(buyer, 'Bo Buyer');
    const bookingId = await bookCarApi(buyer, carId);
    await payApi(buyer, bookingId);
    const { handover, currency } = await bookingOf(buyer, bookingId);
    const share = formatMoney(handover!.sellerCents, currency);

    await page.goto('/dashboard');
    await dashboardNav(page).getByRole('link', { name: 'Payouts' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Payouts' })).toBeVisible();
    const balance = page.getByTestId('balance');
    const figure = (label: string) => balance.locator(`dt:text-is("${label}") + dd`);
    await expect(figure('Pending hand-over')).toHaveText(share);

    // The buyer has the car.
    const handedOver = await buyer.post(`/api/booked/${bookingId}/handover`, { headers: fromSite });
    expect(handedOver.ok(), await handedOver.text()).toBe(true);
    await buyer.dispose();
    await page.reload();
    await expect(figure('Ready to pay out')).toHaveText(share);

    // The provider sends the seller back to the server's own origin, `localhost` without a
    // PUBLIC_URL; these tests' pages are at 127.0.0.1, where the seller's cookie is.
    await page.route(/^http:\/\/localhost:\d+\//, (route) =>
      route.fulfill({
        status: 302,
        headers: { location: route.request().url().replace('//localhost:', '//127.0.0.1:') },
      }),
    );
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Add payout account' }).click();
    // The sandbox's onboarding is done at once: the provider sends the seller straight back.
    // Said once: the address loses `?account=done` (a reload does not say it again), the words stay.
    const setUp = page.getByRole('status').filter({ hasText: 'payout account is set up' });
    await expect(setUp).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/payouts$/);
    await expect(setUp).toBeVisible();
    await expect(figure('Paid out')).toHaveText(share);
    const payout = page.getByTestId('payout-row').filter({ hasText: carName });
    await expect(payout).toContainText(share);
    await page.reload();
    await expect(figure('Paid out')).toHaveText(share);
    await expect(setUp).toHaveCount(0);
  });

  test('a buyer reports a problem, an admin refunds them, and My Orders says Refunded', async ({
    page,
    browser,
    playwright,
  }) => {
    const carName = `VW Caddy ${uniqueMarker()}`;
    const { carId } = await carOfNewSeller(playwright, carName);
    const buyer = await signUpBuyer(page, 'Remy Reporter');
    const bookingId = await bookCarApi(page.request, carId);
    await payApi(page.request, bookingId);

    await page.goto('/dashboard/orders');
    await waitForHydration(page);
    const row = orderRow(page, carName);
    await row.getByRole('button', { name: `Report a problem with the ${carName}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Report a problem' });
    const reason = dialog.getByLabel('What went wrong');
    await expect(reason).toBeFocused();
    // Too short: the shared schema says so beside the field, and nothing is sent.
    await reason.fill('Broken');
    await dialog.getByRole('button', { name: 'Report problem' }).click();
    await expect(reason).toHaveAccessibleDescription(/at least 10 characters/);
    await expect(reason).toBeFocused();
    await reason.fill('The seller never turned up at the meeting place, twice.');
    await dialog.getByRole('button', { name: 'Report problem' }).click();
    await expect(dialog).toBeHidden();
    const status = row.getByTestId('handover-status');
    await expect(status).toHaveText(/^You reported a problem/);
    await expect(status).toBeFocused();
    await expect(
      row.getByRole('button', { name: /Confirm hand-over|Report a problem/ }),
    ).toHaveCount(0);

    // An admin, in a browser of their own.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signInApi(admin.request, 'admin@demo.local');
    await admin.goto('/dashboard');
    await dashboardNav(admin).getByRole('link', { name: 'Disputes' }).click();
    await expect(admin.getByRole('heading', { level: 1, name: 'Disputes' })).toBeVisible();
    const dispute = admin.getByTestId('dispute').filter({ hasText: carName });
    await expect(dispute).toContainText(buyer.email);
    await expect(dispute).toContainText('The seller never turned up at the meeting place, twice.');
    // Each tab says how many disputes it holds (other tests may add theirs meanwhile).
    const tabs = admin.getByRole('navigation', { name: 'Disputes by status' });
    await expect(tabs.getByRole('link', { name: /^Open \(\d+\)$/ })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(tabs.getByRole('link', { name: /^Open \([1-9]\d*\)$/ })).toBeVisible();
    const resolvedTab = tabs.getByRole('link', { name: /^Resolved \(\d+\)$/ });
    const resolvedBefore = Number(/\d+/.exec((await resolvedTab.textContent()) ?? '')![0]);
    await waitForHydration(admin);
    await dispute.getByRole('button', { name: `Refund buyer for the ${carName}` }).click();
    const refund = admin.getByRole('dialog', { name: `Refund ${buyer.name}?` });
    const note = refund.getByLabel('Note, for the buyer and the seller');
    await expect(note).toBeFocused();
    // The note is required.
    await refund.getByRole('button', { name: 'Refund buyer' }).click();
    await expect(note).toHaveAccessibleDescription(/Note must be at least 3 characters/);
    await note.fill('The seller did not come to either meeting; the money goes back.');
    await refund.getByRole('button', { name: 'Refund buyer' }).click();
    await expect(refund).toBeHidden();
    const done = admin.getByRole('status').filter({ hasText: `${buyer.name} was refunded` });
    await expect(done).toBeVisible();
    await expect(done).toBeFocused();
    await expect(dispute).toHaveCount(0);
    // The ruling moved it to Resolved, whose count went up (a resolved dispute stays resolved).
    await expect(resolvedTab).not.toHaveAccessibleName(`Resolved (${resolvedBefore})`);
    expect(Number(/\d+/.exec((await resolvedTab.textContent()) ?? '')![0])).toBeGreaterThan(
      resolvedBefore,
    );
    // Resolved ones are on their own tab, with the ruling and the note.
    await resolvedTab.click();
    await expect(admin).toHaveURL(/status=resolved/);
    await expect(admin.getByRole('heading', { name: 'Resolved disputes' })).toBeAttached();
    // Another tab of Disputes is still Disputes in the menu.
    await expect(dashboardNav(admin).getByRole('link', { name: 'Disputes' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(dispute).toContainText('Refunded to the buyer');
    await expect(dispute).toContainText('the money goes back');
    await adminContext.close();

    // The buyer sees it in My Orders (the words and the badge: handover-status.test.tsx).
    await page.reload();
    await expect(orderRow(page, carName).getByTestId('handover-status')).toHaveText(/^Refunded/);
  });
});

import { expect, test, type Page } from '@playwright/test';

import { A11Y_TEST_TIMEOUT, CATEGORY, state, uniqueMarker, userIdApi } from './a11y-helpers';
import {
  ACCORD,
  addCarApi,
  fromSite,
  otherSession,
  payApi,
  signInApi,
  signUpBuyerApi,
  signUpSellerApi,
  solidPng,
  waitForHydration,
  waitForPriceGuide,
} from './site';

/*
 * Accessibility of the dashboards of the demo accounts, and of a seller's and an admin's pages
 * (how these files work: a11y-helpers.ts).
 */

const dashboardNav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });

test.describe('accessibility: the demo dashboards, a seller’s and an admin’s pages', () => {
  test.describe.configure({ timeout: A11Y_TEST_TIMEOUT });

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
    await expect(status).toHaveText(/^2 photos uploaded\. not-a-photo\.jpg was not uploaded: /);
    await page.unroute('**/api/uploads');

    const statusTabs = page.getByRole('group', { name: 'Show cars by status' });
    await state(page, 'My cars, on the On sale tab, with the tabs’ counts', async () => {
      await page.goto('/dashboard/my-products?status=available');
      await expect(
        statusTabs.getByRole('button', { name: 'On sale 1', pressed: true }),
      ).toBeVisible();
      await expect(page.getByTestId('my-car-row')).toHaveCount(1);
    });
    await state(page, 'My cars, a search that finds nothing', async () => {
      await page.getByRole('searchbox', { name: 'Search your cars' }).fill('no such car');
      await expect(page.getByText('No cars match “no such car” among cars on sale')).toBeVisible();
    });
  });

  test('a seller’s own car page: the Your car panel, its figures, Edit and a withdrawn car', async ({
    page,
    playwright,
  }) => {
    const marker = uniqueMarker();
    await signUpSellerApi(page.request, `Sol Seller ${marker}`);
    const carName = `Volvo V90 ${marker}`;
    const carId = await addCarApi(page.request, carName, { category: CATEGORY });
    const panel = page.getByRole('region', { name: 'Your car' });
    const views = panel.locator('dt:text-is("Views") + dd');
    await state(page, 'the seller’s car page, with no views yet', async () => {
      await page.goto(`/listing/${carId}`);
      // The panel's code loads once the page is the app's.
      await expect(panel.getByText('No views in the last 30 days.')).toBeVisible({
        timeout: 20_000,
      });
    });

    // A buyer opens it, so that the panel draws its chart of views.
    const buyerApi = await otherSession(playwright);
    await signUpBuyerApi(buyerApi, 'Vera Viewer');
    const viewed = await buyerApi.get(`/api/listings/${carId}`);
    expect(viewed.ok(), await viewed.text()).toBe(true);
    await buyerApi.dispose();
    await state(page, 'the seller’s car page, with its chart of views', async () => {
      // Views reach the database every few seconds.
      await expect(async () => {
        await page.reload();
        await expect(views).toHaveText('1', { timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await expect(panel.getByRole('img', { name: /^Views a day/ })).toBeVisible();
    });
    await state(page, 'Edit open on the car’s page', async () => {
      await waitForHydration(page);
      await panel.getByRole('button', { name: 'Edit' }).click();
      await expect(page.getByRole('dialog', { name: `Edit ${carName}` })).toBeVisible();
      await expect(page.getByTestId('photo-item')).toHaveCount(1);
    });
    await page.keyboard.press('Escape');
    await state(page, 'the seller’s withdrawn car', async () => {
      const withdrawn = await page.request.post(`/api/listings/${carId}/withdraw`, {
        headers: fromSite,
      });
      expect(withdrawn.ok(), await withdrawn.text()).toBe(true);
      await page.reload();
      await expect(panel.getByRole('button', { name: 'Put back on sale' })).toBeVisible();
    });
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

  test('an admin: the categories, a name refused, editing one and deleting one with cars', async ({
    page,
  }) => {
    // Nothing is changed: the states are of the seeded categories, and every dialog is cancelled.
    await signInApi(page.request, 'admin@demo.local');
    const rows = page.getByTestId('category-row');
    const microbus = rows.filter({ hasText: 'Microbus' });
    await state(page, 'Categories, the list and the Add form', async () => {
      await page.goto('/dashboard/categories');
      await expect(microbus).toContainText(/\d+ cars/);
      await expect(page.getByRole('radio', { name: 'Van, red' })).toBeAttached();
    });
    const form = page.getByRole('region', { name: 'Add a category' });
    await state(page, 'Add a category, a name taken already', async () => {
      await form.getByLabel('Name').fill('microbus');
      await form.getByRole('button', { name: 'Add category' }).click();
      await expect(form.getByText('There is already a category named “Microbus”.')).toBeVisible();
    });
    const edit = page.getByRole('dialog', { name: 'Edit Microbus' });
    await state(page, 'Edit a category, open', async () => {
      await microbus.getByRole('button', { name: 'Edit Microbus' }).click();
      await expect(edit.getByLabel('Name')).toHaveValue('Microbus');
    });
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await expect(edit).toBeHidden();
    const remove = page.getByRole('dialog', { name: 'Delete Microbus?' });
    await state(page, 'Delete a category with cars, asking where they go', async () => {
      await microbus.getByRole('button', { name: 'Delete Microbus' }).click();
      await remove.getByRole('button', { name: 'Delete category' }).click();
      await expect(remove.getByText('Choose the category that takes its cars')).toBeVisible();
    });
    await remove.getByRole('button', { name: 'Cancel' }).click();
    await expect(remove).toBeHidden();
  });

  test('a seller: the price guide and Fill from VIN on Add a car, and a VIN that disagrees', async ({
    page,
  }) => {
    const marker = uniqueMarker();
    await signUpSellerApi(page.request, `Val Vin ${marker}`);
    await waitForPriceGuide(page.request);
    const guide = page.getByTestId('seller-price-guide');
    await state(page, 'Add a car, the price guide beside the price', async () => {
      await page.goto('/dashboard/add-product');
      await waitForHydration(page);
      await page.getByLabel('Make').selectOption('Kia');
      await page.getByLabel('Model', { exact: true }).selectOption('EV6');
      await page.getByLabel('Model year').fill('2022');
      await page.getByLabel('Body type (optional)').selectOption('SUV');
      await expect(guide).toHaveText(/^Similar cars: typical range/);
      await page.getByRole('spinbutton', { name: 'Asking price (USD)' }).scrollIntoViewIfNeeded();
    });
    const vin = page.getByLabel('VIN (optional)');
    const fill = page.getByRole('button', { name: 'Fill from VIN' });
    await state(page, 'Add a car, filled in from the VIN', async () => {
      await vin.fill(ACCORD);
      await fill.click();
      // The site's first decode starts the decoder's process, which reads the vPIC data (decision
      // 033): seconds more than an answer, and more on a loaded machine.
      await expect(vin).toHaveAccessibleDescription(/^Filled in from the VIN/, { timeout: 20_000 });
      await vin.scrollIntoViewIfNeeded();
    });
    await state(page, 'Add a car, a VIN the data does not know', async () => {
      await vin.fill('11111111111111111');
      await fill.click();
      await expect(vin).toHaveAttribute('aria-invalid', 'true');
    });
    await state(page, 'a car page, its VIN decoding as another model', async () => {
      const carId = await addCarApi(page.request, `Honda Civic ${marker}`, {
        category: CATEGORY,
        make: 'Honda',
        model: 'Civic',
        year: 2005,
        vin: ACCORD,
      });
      await page.goto(`/listing/${carId}`);
      await expect(page.getByTestId('vin-decoded')).toContainText('Check your listing');
    });
  });

  test('a seller’s Payouts, an admin’s Disputes and money figures', async ({
    page,
    playwright,
  }) => {
    const marker = uniqueMarker();
    const sellerApi = await otherSession(playwright);
    await signUpSellerApi(sellerApi, `Pam Payouts ${marker}`);
    const names = ['Sharan', 'Touareg'].map((model) => `VW ${model} ${marker}`);
    const buyerApi = await otherSession(playwright);
    await signUpBuyerApi(buyerApi, 'Dora Disputer');
    const bookings = [];
    for (const name of names) {
      const carId = await addCarApi(sellerApi, name, { category: CATEGORY });
      const booked = await buyerApi.post('/api/category', {
        data: { listingId: carId, userPhone: '+1 503 555 0100', userLocation: 'Portland, OR' },
      });
      expect(booked.ok(), await booked.text()).toBe(true);
      const { insertedId } = (await booked.json()) as { insertedId: string };
      await payApi(buyerApi, insertedId);
      bookings.push(insertedId);
    }
    const handedOver = await buyerApi.post(`/api/booked/${bookings[0]}/handover`);
    expect(handedOver.ok(), await handedOver.text()).toBe(true);
    const disputed = await buyerApi.post(`/api/booked/${bookings[1]}/dispute`, {
      data: { reason: 'The seller has not answered since I paid.' },
    });
    expect(disputed.ok(), await disputed.text()).toBe(true);
    await buyerApi.dispose();

    // The seller, in this page: money waiting for a payout account, then paid out.
    const sellerCookies = await sellerApi.storageState();
    await sellerApi.dispose();
    await page.context().addCookies(sellerCookies.cookies);
    await state(page, 'Payouts, money waiting for a payout account', async () => {
      await page.goto('/dashboard/payouts');
      await expect(page.getByTestId('payout-account-notice')).toBeVisible();
    });
    const added = await page.request.post('/api/my/payout-account', { headers: fromSite });
    expect(added.ok(), await added.text()).toBe(true);
    await state(page, 'Payouts, back from adding the account, with a payout', async () => {
      await page.goto('/dashboard/payouts?account=done');
      await expect(page.getByTestId('payout-row').filter({ hasText: names[0]! })).toBeVisible();
      await expect(page.getByText('Your payout account is set up')).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/payouts$/);
    });
    await state(page, 'My cars, its bookings with where their money is', async () => {
      await page.goto('/dashboard/my-products');
      await expect(page.getByTestId('handover-status').first()).toBeVisible();
    });

    await page.context().clearCookies();
    await signInApi(page.request, 'admin@demo.local');
    await state(page, 'the admin’s dashboard, with the money figures', async () => {
      await page.goto('/dashboard');
      await expect(page.getByText('Money held')).toBeVisible({ timeout: 20_000 });
    });
    const dispute = page.getByTestId('dispute').filter({ hasText: names[1]! });
    await state(page, 'Disputes, open', async () => {
      await page.goto('/dashboard/disputes');
      await expect(dispute).toBeVisible();
    });
    const release = page.getByRole('dialog', { name: /^Release the money to / });
    await state(page, 'Release to seller, without a note', async () => {
      await waitForHydration(page);
      await dispute.getByRole('button', { name: /^Release to seller/ }).click();
      await release.getByRole('button', { name: 'Release to seller' }).click();
      await expect(release.getByLabel('Note, for the buyer and the seller')).toHaveAttribute(
        'aria-invalid',
        'true',
      );
    });
    await state(page, 'Disputes, after a ruling, and the resolved ones', async () => {
      await release.getByLabel('Note, for the buyer and the seller').fill('The buyer has the car.');
      await release.getByRole('button', { name: 'Release to seller' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'was released to' })).toBeVisible();
      await page.goto('/dashboard/disputes?status=resolved');
      await expect(dispute).toContainText('Released to the seller');
      await expect(page.getByRole('heading', { name: 'Resolved disputes' })).toBeAttached();
    });
  });
});

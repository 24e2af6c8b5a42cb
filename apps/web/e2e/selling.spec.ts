import type { CategorySummary, MyListing } from '@carmarket/shared';
import { expect, test, type Page } from '@playwright/test';

import {
  addCarApi,
  fromSite,
  scrollToAdvertised,
  SITE,
  signUpBuyerApi,
  signUpSellerApi,
  solidPng,
} from './site';

const CATEGORY = 'Electric car';

/** Waits until the app has taken over the prerendered page, so its buttons work. */
async function waitForHydration(page: Page) {
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
}

/** A new Seller account, signed in in this page's browser context (`page.request` shares its cookies). */
async function signUpSeller(page: Page) {
  const name = `Sam Seller ${Date.now().toString(36)}`;
  const email = `seller-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    data: { name, email, password: 'long-enough-password-2026' },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const role = await page.request.post('/api/user', {
    headers: fromSite,
    data: { name, email, role: 'Seller' },
  });
  expect(role.ok(), await role.text()).toBe(true);
  return { name, email };
}

async function categoryId(page: Page, name: string): Promise<string> {
  const categories = (await (await page.request.get('/api/category')).json()) as CategorySummary[];
  const category = categories.find((candidate) => candidate.name === name);
  if (!category) throw new Error(`No category ${name}`);
  return category._id;
}

test.describe('selling', () => {
  test('a new seller adds a car with two photos, sees it listed, advertises it and finds it on the home page', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const seller = await signUpSeller(page);
    const carName = `Volt Cruiser ${Date.now().toString(36)}`;

    // The spec's address of the form.
    await page.goto('/product');
    await expect(page).toHaveURL(/\/dashboard\/add-product$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Add a car' })).toBeVisible();
    await expect(page.getByLabel('Seller name')).toHaveValue(seller.name);

    // Sent empty, each field says what it needs and the first one takes focus.
    await page.getByRole('button', { name: 'Add car' }).click();
    const nameField = page.getByRole('textbox', { name: 'Name', exact: true });
    await expect(nameField).toBeFocused();
    await expect(nameField).toHaveAttribute('aria-invalid', 'true');
    for (const message of [
      'Name is required',
      'Make is required',
      'Model is required',
      'Category is required',
      'Price is required',
      'Mileage is required',
      'Condition is required',
      'Description is required',
      'Image is required',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    const describedBy = await nameField.getAttribute('aria-describedby');
    await expect(page.locator(`[id="${describedBy?.split(' ')[0]}"]`)).toHaveText(
      'Name is required',
    );

    await nameField.fill(carName);
    await page.getByLabel('Category').selectOption(CATEGORY);
    await page.getByLabel('Asking price (USD)').fill('24500');
    await page.getByLabel('Original price (USD)').fill('31999.50');
    await page.getByLabel('Model year').fill('2022');
    await page.getByLabel('Make').selectOption('Toyota');
    await page.getByLabel('Model', { exact: true }).selectOption('HiAce');
    await page.getByLabel('Fuel (optional)').selectOption('diesel');
    // In miles beside dollars; the server keeps kilometres.
    await page.getByLabel('Mileage (miles)').fill('42000');
    await page.getByLabel('Condition').selectOption('Good');
    // The location comes from the list of places, so buyers can find the car by distance.
    await page.getByLabel('Location').fill('Tacom');
    await page.getByRole('option', { name: 'Tacoma, WA' }).click();
    await expect(page.getByLabel('Location')).toHaveValue('Tacoma, WA');
    await page.getByLabel('Description').fill('One owner, winter tyres included.');

    // Uploads are held back a moment, to see the form wait for them.
    let releaseUploads!: () => void;
    const uploadsHeld = new Promise<void>((resolve) => (releaseUploads = resolve));
    await page.route('**/api/uploads', async (route) => {
      await uploadsHeld;
      await route.continue();
    });
    await page.getByLabel('Add photos').setInputFiles([
      { name: 'front.png', mimeType: 'image/png', buffer: solidPng(64, 48, [200, 60, 40]) },
      { name: 'side.png', mimeType: 'image/png', buffer: solidPng(64, 48, [40, 90, 200]) },
    ]);
    const photos = page.getByTestId('photo-item');
    await expect(photos).toHaveCount(2);
    await expect(page.getByRole('progressbar', { name: /^Uploading photo/ })).toHaveCount(2);
    const addCar = page.getByRole('button', { name: 'Add car' });
    await expect(addCar).toBeDisabled();
    await expect(addCar).toHaveAccessibleDescription(
      'Wait until 2 photos have finished uploading.',
    );
    releaseUploads();
    await expect(photos.getByText('Uploaded')).toHaveCount(2);
    await expect(page.getByText('Image is required', { exact: true })).toBeHidden();

    // The second photo becomes the cover.
    await page.getByRole('button', { name: 'Make photo 2 the cover' }).click();
    await expect(page.getByRole('img', { name: 'Photo 1 (cover): side.png' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Photo 2: front.png' })).toBeVisible();

    await page.getByRole('button', { name: 'Add car' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Car added' })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/my-products$/);

    // My cars lists it, on sale and unsold.
    const row = page.getByTestId('my-car-row').filter({ hasText: carName });
    await expect(row).toBeVisible();
    await expect(row).toContainText('$24,500');
    await expect(row).toContainText('On sale');
    await expect(row.getByTestId('sale-label')).toHaveText('Unsold');

    const mine = (await (await page.request.get('/api/my/listings')).json()) as MyListing[];
    const car = mine.find((listing) => listing.name === carName);
    expect(car).toBeDefined();
    expect(car!.images).toHaveLength(2);
    expect(car!.orprice).toBe(3_199_950);
    expect(car!.categoryName).toBe(CATEGORY);
    expect(car).toMatchObject({
      make: 'Toyota',
      model: 'HiAce',
      fuel: 'diesel',
      mileageKm: 67_592,
    });
    expect(car!.placeId).not.toBeNull();

    // Its category page shows it.
    await page.goto(`/category/${await categoryId(page, CATEGORY)}`);
    const card = page.getByTestId('listing-card').filter({ hasText: carName });
    await expect(card).toBeVisible();
    // The original price keeps its cents though the asking price before it is whole.
    await expect(card).toContainText('$24,500');
    await expect(card).toContainText('$31,999.50');
    await expect(card).toContainText('42,000 mi');

    // Advertised, it shows on the home page.
    await page.goto('/myProduct');
    await expect(page).toHaveURL(/\/dashboard\/my-products$/);
    await page.getByRole('button', { name: `Advertise ${carName}` }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Advertised' })).toBeVisible();
    await expect(page.getByRole('button', { name: `Stop advertising ${carName}` })).toBeVisible();

    await page.goto('/');
    await waitForHydration(page);
    await scrollToAdvertised(page);
    const advertised = page.getByRole('region', { name: 'Cars on offer now' });
    await expect(advertised).toBeVisible();
    const link = advertised.getByRole('link').filter({ hasText: carName });
    await expect(link).toHaveAttribute('href', `/listing/${car!._id}`);
    await expect(advertised.getByTestId('advertised-car').first()).toContainText(carName);
  });

  test('a file named .jpg that is no photo says why it was refused and offers only Remove; the count follows the uploads (rough edge 9)', async ({
    page,
  }) => {
    await signUpSeller(page);
    // slow.png's upload is held, to see the count with one photo done and one still going.
    let releaseSlow!: () => void;
    const slowHeld = new Promise<void>((resolve) => (releaseSlow = resolve));
    await page.route('**/api/uploads', async (route) => {
      if (route.request().postDataBuffer()?.includes('slow.png')) await slowHeld;
      await route.continue();
    });
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
    const photos = page.getByTestId('photo-item');
    await expect(photos).toHaveCount(3);
    const status = page.getByRole('group', { name: 'Photos' }).getByRole('status');

    const refused = photos.filter({ hasText: 'not-a-photo.jpg' });
    await expect(refused).toContainText(
      'Refused: This file is not a JPEG, PNG, WebP or AVIF photo, whatever its name says.',
    );
    const fast = photos.filter({ has: page.getByRole('img', { name: /fast\.png/ }) });
    await expect(fast).toContainText('Uploaded');
    // One done, one in flight: the count is of the upload still going.
    await expect(status).toHaveText(/^Uploading 1 photo\. /);

    // No broken picture and no Cover badge on the refused file, no Try again: only Remove.
    await expect(refused.getByRole('img')).toHaveCount(0);
    await expect(refused.getByText('No preview')).toBeVisible();
    await expect(refused.getByText('Cover', { exact: true })).toHaveCount(0);
    await expect(fast.getByText('Cover', { exact: true })).toBeVisible();
    // It goes after the car's photos, which keep their numbers.
    await expect(page.getByRole('img', { name: 'Photo 1 (cover): fast.png' })).toBeVisible();
    await expect(photos.last()).toContainText('not-a-photo.jpg');
    await expect(refused.getByRole('button', { name: /again/i })).toHaveCount(0);
    await expect(refused.getByRole('button')).toHaveText(['Remove']);
    const broken = await page
      .getByTestId('photo-item')
      .locator('img')
      .evaluateAll((images) =>
        (images as HTMLImageElement[]).filter((image) => image.complete && !image.naturalWidth),
      );
    expect(broken).toHaveLength(0);

    releaseSlow();
    await expect(photos.filter({ hasText: 'Uploaded' })).toHaveCount(2);
    // Once all have ended, the status says them all: the count, and the one refused.
    await expect(status).toHaveText(/^2 photos uploaded\. not-a-photo\.jpg was not uploaded: /);
    await refused.getByRole('button', { name: 'Remove not-a-photo.jpg' }).click();
    await expect(photos).toHaveCount(2);
    await expect(status).toHaveText('not-a-photo.jpg removed.');
    await expect(page.getByRole('img', { name: 'Photo 1 (cover): fast.png' })).toBeVisible();
  });

  test('21 photos chosen at once: the one past 20 is named as not added, and the status counts the 20 uploaded; on a phone they are three a row (walk-through)', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUpSeller(page);
    await page.goto('/dashboard/add-product');
    await waitForHydration(page);
    await page.getByLabel('Add photos').setInputFiles(
      Array.from({ length: 21 }, (_, index) => ({
        name: `p${index + 1}.png`,
        mimeType: 'image/png',
        buffer: solidPng(40, 30, [index * 10, 60, 200]),
      })),
    );
    const field = page.getByRole('group', { name: 'Photos' });
    await expect(page.getByTestId('photo-item')).toHaveCount(20);
    await expect(
      field.getByText('1 photo not added: a car can have at most 20 (p21.png).', { exact: true }),
    ).toBeVisible();
    await expect(field.getByRole('status')).toHaveText('20 photos uploaded.', { timeout: 20_000 });
    // Still said once the uploads have ended.
    await expect(
      field.getByText('1 photo not added: a car can have at most 20 (p21.png).', { exact: true }),
    ).toBeVisible();

    // On a phone three thumbnails a row: 20 take 7 rows (two wide tiles a row took 3,700 px).
    expect((await field.boundingBox())!.height).toBeLessThan(1_500);
    const tops = await page
      .getByTestId('photo-item')
      .evaluateAll((items) => items.slice(0, 4).map((item) => item.getBoundingClientRect().top));
    expect(new Set(tops.slice(0, 3)).size).toBe(1);
    expect(tops[3]).toBeGreaterThan(tops[0]!);
    // Each of a thumbnail's buttons is still a 44 px target.
    const targets = await page
      .getByTestId('photo-item')
      .nth(1)
      .getByRole('button')
      .evaluateAll((buttons) =>
        buttons.map((button) => {
          const { width, height } = button.getBoundingClientRect();
          return `${button.getAttribute('aria-label')}: ${Math.min(width, height) >= 44}`;
        }),
      );
    expect(targets).toEqual([
      'Make photo 2 the cover: true',
      'Remove photo 2: true',
      'Move photo 2 earlier: true',
      'Move photo 2 later: true',
    ]);
  });

  test('markup in a car’s name and description shows as text and never runs', async ({ page }) => {
    await signUpSeller(page);
    const marker = Date.now().toString(36);
    const name = `<img src=x onerror="window.__xss=1"><b>Van ${marker}</b>`;
    const describe = `<script>window.__xss=2</script><a href="javascript:window.__xss=3">click</a>`;
    const upload = await page.request.post('/api/uploads', {
      headers: fromSite,
      multipart: {
        image: { name: 'car.png', mimeType: 'image/png', buffer: solidPng(32, 24, [90, 40, 140]) },
      },
    });
    const { data } = (await upload.json()) as { data: { url: string } };
    const created = await page.request.post(`/api/product?name=${encodeURIComponent(CATEGORY)}`, {
      headers: fromSite,
      data: {
        name,
        reprice: 900_000,
        orprice: 1_000_000,
        location: 'Reno, NV',
        year: 2018,
        condition: 'Good',
        describe,
        images: [data.url],
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const { insertedId } = (await created.json()) as { insertedId: string };

    /** Nothing of it became an element, and nothing ran. */
    const expectInert = async () => {
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      await expect(page.locator('img[src="x"]')).toHaveCount(0);
      await expect(page.locator('b', { hasText: `Van ${marker}` })).toHaveCount(0);
    };
    await page.goto(`/category/${await categoryId(page, CATEGORY)}`);
    const card = page.getByTestId('listing-card').filter({ hasText: `Van ${marker}` });
    await expect(card.getByRole('heading')).toHaveText(name);
    await expectInert();
    await page.goto(`/listing/${insertedId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    await expect(page.getByText(describe)).toBeVisible();
    await expectInert();
    await page.goto('/dashboard/my-products');
    await expect(page.getByTestId('my-car-row').filter({ hasText: `Van ${marker}` })).toBeVisible();
    await expectInert();
  });

  test('a dealer’s many cars come 24 at a time in My cars, the rest with Load more', async ({
    page,
  }) => {
    const signIn = await page.request.post('/api/auth/sign-in/email', {
      headers: fromSite,
      data: { email: 'seller@demo.local', password: 'demo-drive-2026' },
    });
    expect(signIn.ok(), await signIn.text()).toBe(true);
    const all = (await (await page.request.get('/api/my/listings')).json()) as MyListing[];
    expect(all.length).toBeGreaterThan(24);

    await page.goto('/dashboard/my-products');
    const rows = page.getByTestId('my-car-row');
    await expect(rows).toHaveCount(24);
    await expect(rows.first()).toContainText(all[0]!.name);
    await expect(page.getByText(`Showing 24 of ${all.length}`)).toBeVisible();

    while ((await rows.count()) < all.length) {
      const before = await rows.count();
      await page.getByRole('button', { name: 'Load more cars' }).click();
      await expect(rows).toHaveCount(Math.min(before + 24, all.length));
    }
    await expect(page.getByText(`Showing ${all.length} of ${all.length}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Load more cars' })).toHaveCount(0);
    // Every car once, in the order of the whole list.
    const names = await rows.locator('th p.font-semibold').allTextContents();
    expect(names).toEqual(all.map((car) => car.name));
  });

  test('a seller edits a car, then withdraws it: it cannot be advertised any more', async ({
    page,
  }) => {
    await signUpSeller(page);
    const carName = `Quiet Hatch ${Date.now().toString(36)}`;
    const upload = await page.request.post('/api/uploads', {
      headers: fromSite,
      multipart: {
        image: { name: 'car.png', mimeType: 'image/png', buffer: solidPng(32, 24, [10, 140, 90]) },
      },
    });
    expect(upload.ok(), await upload.text()).toBe(true);
    const { data } = (await upload.json()) as { data: { url: string } };
    const created = await page.request.post(`/api/product?name=${encodeURIComponent(CATEGORY)}`, {
      headers: fromSite,
      data: {
        name: carName,
        reprice: 1_500_000,
        orprice: 2_000_000,
        location: 'Boise, ID',
        year: 2019,
        condition: 'Fair',
        describe: 'Runs well.',
        images: [data.url],
      },
    });
    expect(created.ok(), await created.text()).toBe(true);

    await page.goto('/dashboard/my-products');
    const row = page.getByTestId('my-car-row').filter({ hasText: carName });
    await expect(row).toContainText('$15,000');

    // Edit: the same form, filled in; only the price changes.
    await row.getByRole('button', { name: `Edit ${carName}` }).click();
    const editor = page.getByRole('dialog', { name: `Edit ${carName}` });
    await expect(editor.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(carName);
    await expect(editor.getByLabel('Condition')).toHaveValue('Fair');
    await expect(editor.getByTestId('photo-item')).toHaveCount(1);
    await editor.getByLabel('Asking price (USD)').fill('14250');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Changes saved' })).toBeVisible();
    await expect(editor).toBeHidden();
    await expect(row).toContainText('$14,250');

    await row.getByRole('button', { name: `Withdraw ${carName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Withdraw ${carName}?` });
    await expect(dialog).toContainText('Nobody has an open booking of it.');
    await dialog.getByRole('button', { name: 'Withdraw car' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Car withdrawn' })).toBeVisible();

    await expect(row).toContainText('Withdrawn');
    const advertise = row.getByRole('button', { name: `Advertise ${carName}` });
    await expect(advertise).toHaveAttribute('aria-disabled', 'true');
    await expect(advertise).toHaveAccessibleDescription(/A withdrawn car cannot be advertised/);
  });

  test('a seller withdraws a car, then puts it back on sale from My cars; a buyer who saved it sees it is back', async ({
    page,
    browser,
  }) => {
    test.setTimeout(60_000);
    await signUpSellerApi(page.request);
    const carName = `Second Chance ${Date.now().toString(36)}`;
    const carId = await addCarApi(page.request, carName);
    // A buyer, in a browser of their own, saves it while it is on sale.
    const buyer = await browser.newContext({ baseURL: SITE });
    await signUpBuyerApi(buyer.request);
    const saved = await buyer.request.put(`/api/saved-cars/${carId}`, { headers: fromSite });
    expect(saved.ok(), await saved.text()).toBe(true);

    await page.goto('/dashboard/my-products');
    await waitForHydration(page);
    const row = page.getByTestId('my-car-row').filter({ hasText: carName });
    await row.getByRole('button', { name: `Withdraw ${carName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Withdraw ${carName}?` });
    // Withdrawing is no longer final, and the dialog no longer says it is.
    await expect(dialog).toContainText('You can put it back on sale');
    await expect(dialog).not.toContainText('cannot put it back');
    await dialog.getByRole('button', { name: 'Withdraw car' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Car withdrawn' })).toBeVisible();
    await expect(row).toContainText('Withdrawn');
    await expect(row.getByRole('button', { name: `Withdraw ${carName}` })).toHaveCount(0);

    await row.getByRole('button', { name: `Put ${carName} back on sale` }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: `${carName} is on sale again` }),
    ).toBeVisible();
    await expect(row).toContainText('On sale');
    await expect(row.getByRole('button', { name: `Put ${carName} back on sale` })).toHaveCount(0);
    await expect(row.getByRole('button', { name: `Withdraw ${carName}` })).toBeVisible();
    await expect(row.getByRole('button', { name: `Advertise ${carName}` })).not.toHaveAttribute(
      'aria-disabled',
    );

    // Its page shows it on sale again, not withdrawn.
    await page.goto(`/listing/${carId}`);
    await expect(page.getByRole('heading', { level: 1, name: carName })).toBeVisible();
    await expect(page.getByText('Withdrawn by the seller')).toHaveCount(0);

    // The buyer still has it saved, and their Saved cars say it is back.
    const buyerPage = await buyer.newPage();
    await buyerPage.goto('/dashboard/saved');
    const item = buyerPage.getByTestId('saved-car').filter({ hasText: carName });
    await expect(item).toContainText('Back on sale');
    await expect(item).not.toContainText('Withdrawn');
    await buyer.close();
  });
});

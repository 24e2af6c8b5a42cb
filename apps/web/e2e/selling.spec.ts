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

    // What each empty field says, Add car waiting for the uploads and the cover moved:
    // listing-form.test.tsx. Here the car goes from the form to the site.
    const nameField = page.getByRole('textbox', { name: 'Name', exact: true });
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

    await page.getByLabel('Add photos').setInputFiles([
      { name: 'front.png', mimeType: 'image/png', buffer: solidPng(64, 48, [200, 60, 40]) },
      { name: 'side.png', mimeType: 'image/png', buffer: solidPng(64, 48, [40, 90, 200]) },
    ]);
    await expect(page.getByTestId('photo-item').getByText('Uploaded')).toHaveCount(2);

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

  test('21 photos chosen at once upload 20; on a phone they are three a row, each button a 44 px target (walk-through)', async ({
    page,
  }) => {
    // The words for the one past 20 and the status's count: listing-form.test.tsx.
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
    await expect(field.getByRole('status')).toHaveText('20 photos uploaded.', { timeout: 20_000 });

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

  test('a seller edits a car, withdraws it, then puts it back on sale from My cars; a buyer who saved it sees it is back', async ({
    page,
    browser,
  }) => {
    // The car's buttons for each state and why (a withdrawn car cannot be advertised), and the
    // withdraw dialog's words: car-actions.test.tsx; the edit form's states: listing-form.test.tsx.
    test.setTimeout(60_000);
    await signUpSellerApi(page.request);
    const carName = `Second Chance ${Date.now().toString(36)}`;
    const carId = await addCarApi(page.request, carName, { reprice: 1_500_000 });
    // A buyer, in a browser of their own, saves it while it is on sale.
    const buyer = await browser.newContext({ baseURL: SITE });
    await signUpBuyerApi(buyer.request);
    const saved = await buyer.request.put(`/api/saved-cars/${carId}`, { headers: fromSite });
    expect(saved.ok(), await saved.text()).toBe(true);

    await page.goto('/dashboard/my-products');
    await waitForHydration(page);
    const row = page.getByTestId('my-car-row').filter({ hasText: carName });
    await expect(row).toContainText('$15,000');

    // Edit: the same form, filled in; only the price changes.
    await row.getByRole('button', { name: `Edit ${carName}` }).click();
    const editor = page.getByRole('dialog', { name: `Edit ${carName}` });
    await expect(editor.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(carName);
    await expect(editor.getByLabel('Condition')).toHaveValue('Good');
    await expect(editor.getByTestId('photo-item')).toHaveCount(1);
    await editor.getByLabel('Asking price (USD)').fill('14250');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Changes saved' })).toBeVisible();
    await expect(editor).toBeHidden();
    await expect(row).toContainText('$14,250');

    await row.getByRole('button', { name: `Withdraw ${carName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Withdraw ${carName}?` });
    await dialog.getByRole('button', { name: 'Withdraw car' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Car withdrawn' })).toBeVisible();
    await expect(row).toContainText('Withdrawn');

    await row.getByRole('button', { name: `Put ${carName} back on sale` }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: `${carName} is on sale again` }),
    ).toBeVisible();
    await expect(row).toContainText('On sale');
    await expect(row.getByRole('button', { name: `Withdraw ${carName}` })).toBeVisible();

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

import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';

import { addCarApi, fromSite, SITE, signUpBuyerApi, signUpSellerApi, solidPng } from './site';

/*
 * The car page as its own seller sees it: a Your car panel (status, Edit, Withdraw or Put back
 * on sale, its figures, My cars) instead of Book now; and its photos reordered from the keyboard.
 */

interface Uploaded {
  url: string;
  thumbUrl: string;
}

/** A photo of one colour, uploaded by the seller signed in through `request`. */
async function uploadPhoto(
  request: APIRequestContext,
  colour: [number, number, number],
): Promise<Uploaded> {
  const upload = await request.post('/api/uploads', {
    headers: fromSite,
    multipart: {
      image: { name: 'car.png', mimeType: 'image/png', buffer: solidPng(36, 24, colour) },
    },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  return ((await upload.json()) as { data: Uploaded }).data;
}

/** A new seller signed in in `page`, with a car of three photos on sale; its id, name and photos. */
async function sellerWithCar(page: Page) {
  await signUpSellerApi(page.request, 'Sol Seller');
  const photos = [
    await uploadPhoto(page.request, [200, 40, 40]),
    await uploadPhoto(page.request, [40, 160, 60]),
    await uploadPhoto(page.request, [40, 60, 200]),
  ];
  const name = `Volvo V60 ${Date.now().toString(36)}`;
  const id = await addCarApi(page.request, name, { images: photos.map((photo) => photo.url) });
  return { id, name, photos };
}

const yourCar = (page: Page) => page.getByRole('region', { name: 'Your car' });

/** The figure under its label in the panel's figures ("Views", "Saves" ...). */
const figure = (panel: Locator, label: string) => panel.locator(`dt:text-is("${label}") + dd`);

test.describe('the seller’s own car page', () => {
  test('a seller sees Your car instead of Book now; edits the price, withdraws, puts it back on sale and goes to My cars', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const car = await sellerWithCar(page);
    await page.goto(`/listing/${car.id}`);
    await expect(page.getByRole('heading', { level: 1, name: car.name })).toBeVisible();

    // The panel shows once the page is the app's (its code loads after the page's).
    const panel = yourCar(page);
    await expect(panel).toBeVisible({ timeout: 20_000 });
    await expect(panel).toContainText('On sale');
    await expect(page.getByRole('button', { name: 'Book now' })).toHaveCount(0);
    await expect(page.getByText('This is your car')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Ask the seller/ })).toHaveCount(0);

    // Edit: the My cars form, filled in; the page shows the new price once it is saved.
    await panel.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('dialog', { name: `Edit ${car.name}` });
    await expect(editor.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(car.name);
    await expect(editor.getByTestId('photo-item')).toHaveCount(3);
    await editor.getByLabel('Asking price (USD)').fill('17250');
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Changes saved' })).toBeVisible();
    await expect(editor).toBeHidden();
    await expect(page.getByRole('article', { name: car.name })).toContainText('$17,250');
    await expect(panel.getByRole('button', { name: 'Edit' })).toBeFocused();

    // Withdraw asks first; the car is then withdrawn, and still its seller's to see here.
    await panel.getByRole('button', { name: 'Withdraw' }).click();
    const dialog = page.getByRole('dialog', { name: `Withdraw ${car.name}?` });
    await expect(dialog).toContainText('Nobody has an open booking of it.');
    await dialog.getByRole('button', { name: 'Withdraw car' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Car withdrawn' })).toBeVisible();
    await expect(panel).toContainText('Withdrawn');
    await expect(panel.getByRole('button', { name: 'Withdraw' })).toHaveCount(0);
    const relist = panel.getByRole('button', { name: 'Put back on sale' });
    // Focus, dropped with the Withdraw button, goes to the button that took its place.
    await expect(relist).toBeFocused();
    await page.reload();
    await expect(panel).toContainText('Withdrawn', { timeout: 20_000 });
    await relist.click();
    await expect(
      page.getByRole('alert').filter({ hasText: `${car.name} is on sale again` }),
    ).toBeVisible();
    await expect(panel).toContainText('On sale');
    await expect(relist).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Withdraw' })).toBeFocused();

    await panel.getByRole('link', { name: 'My cars' }).click();
    await expect(page).toHaveURL(/\/dashboard\/my-products$/);
    await expect(page.getByRole('heading', { level: 1, name: 'My cars' })).toBeVisible();
    await expect(page.getByTestId('my-car-row').filter({ hasText: car.name })).toContainText(
      '$17,250',
    );
  });

  test('the seller sees their car’s views once a buyer opened its page', async ({
    page,
    browser,
  }) => {
    test.setTimeout(60_000);
    const car = await sellerWithCar(page);
    await page.goto(`/listing/${car.id}`);
    const panel = yourCar(page);
    await expect(panel.getByText('No views in the last 30 days.')).toBeVisible({ timeout: 20_000 });
    // The seller's own look is no view.
    await expect(figure(panel, 'Views')).toHaveText('0');

    const buyer = await browser.newContext({ baseURL: SITE });
    await signUpBuyerApi(buyer.request, 'Vera Viewer');
    const buyerPage = await buyer.newPage();
    await buyerPage.goto(`/listing/${car.id}`);
    await expect(buyerPage.getByRole('button', { name: 'Book now' })).toBeVisible();
    await expect(buyerPage.getByRole('region', { name: 'Your car' })).toHaveCount(0);
    await buyer.close();

    // Views reach the database every few seconds: the seller looks again until it shows.
    await expect(async () => {
      await page.reload();
      await expect(figure(yourCar(page), 'Views')).toHaveText('1', { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(figure(panel, 'Saves')).toHaveText('0');
    await expect(figure(panel, 'Questions')).toHaveText('0');
    await expect(figure(panel, 'Bookings')).toHaveText('0');
    await expect(panel.getByText('No views in the last 30 days.')).toHaveCount(0);
    await expect(
      panel.getByRole('img', {
        name: /^Views a day over the last 30 days 1 view in the last 30 days/,
      }),
    ).toBeVisible();
  });

  test('a seller reorders the photos from the keyboard in Edit; the page shows the new cover first', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const car = await sellerWithCar(page);
    const [red, green, blue] = car.photos as [Uploaded, Uploaded, Uploaded];
    await page.goto(`/listing/${car.id}`);
    const panel = yourCar(page);
    await expect(panel).toBeVisible({ timeout: 20_000 });
    await panel.getByRole('button', { name: 'Edit' }).press('Enter');
    const editor = page.getByRole('dialog', { name: `Edit ${car.name}` });
    await expect(editor.getByTestId('photo-item')).toHaveCount(3);

    // The third photo becomes the cover; the old cover, now second, moves to the end. What each
    // move says and where the focus goes: photo-field.keyboard.test.tsx.
    await editor.getByRole('button', { name: 'Make photo 3 the cover' }).press('Enter');
    await expect(editor.getByRole('button', { name: 'Move photo 1 (cover) later' })).toBeFocused();
    await editor.getByRole('button', { name: 'Move photo 2 later' }).press('Space');
    await expect(editor.getByRole('button', { name: 'Move photo 3 later' })).toBeFocused();

    await editor.getByRole('button', { name: 'Save changes' }).press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'Changes saved' })).toBeVisible();
    await expect(editor).toBeHidden();

    // Blue first and large, then green, then red.
    await expect(
      page.getByRole('img', { name: `Photo 1 of 3 of the ${car.name}` }),
    ).toHaveAttribute('src', blue.url);
    const thumbnails = page.getByRole('group', { name: 'Choose a photo' }).locator('img');
    await expect(thumbnails).toHaveCount(3);
    expect(
      await thumbnails.evaluateAll((images) => images.map((image) => image.getAttribute('src'))),
    ).toEqual([blue.thumbUrl, green.thumbUrl, red.thumbUrl]);
  });
});

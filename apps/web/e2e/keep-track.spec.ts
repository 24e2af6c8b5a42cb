import type { MyListing } from '@carmarket/shared';
import { expect, test, type Page } from '@playwright/test';

import { confirmEmailApi, fromSite, otherSession, signUpBuyer, SITE, waitForMail } from './site';

const DEMO_PASSWORD = 'demo-drive-2026';

const cards = (page: Page) => page.getByTestId('listing-card');
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

test.describe('keeping track of cars and searches', () => {
  test('a buyer hearts a car on /cars, finds it under Saved cars, and removes it', async ({
    page,
  }) => {
    await signUpBuyer(page, 'Hana Heart');
    await page.goto('/cars');
    const card = cards(page).first();
    const name = (await card.getByRole('heading').textContent())!;
    const heart = card.getByRole('button', { name: new RegExp(`^Save ${name}`) });
    await expect(heart).toHaveAttribute('aria-pressed', 'false');

    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await expect(toast(page, 'Saved to your cars')).toBeVisible();
    await expect(page).toHaveURL(/\/cars$/);

    // The car's own page knows it is saved too.
    await card.getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('button', { name: new RegExp(`^Save ${name}`) })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await page.goto('/dashboard/saved');
    await expect(page.getByRole('heading', { level: 1, name: 'Saved cars' })).toBeVisible();
    const saved = page.getByTestId('saved-car');
    await expect(saved).toHaveCount(1);
    await expect(saved.getByRole('link', { name, exact: true })).toHaveAttribute(
      'href',
      /^\/listing\//,
    );
    await expect(saved).toContainText('when you saved it');

    // Removed, then put back with Undo, then removed for good.
    await saved.getByRole('button', { name: /^Remove/ }).click();
    await expect(saved).toHaveCount(0);
    await toast(page, 'Removed from saved cars').getByRole('button', { name: 'Undo' }).click();
    await expect(saved).toHaveCount(1);
    await expect(saved).toContainText(name);
    await saved.getByRole('button', { name: /^Remove/ }).click();
    await expect(page.getByText('You have not saved a car yet')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Find a car' })).toHaveAttribute(
      'href',
      '/cars',
    );
    await expect
      .poll(async () => (await (await page.request.get('/api/saved-cars')).json()) as unknown[])
      .toEqual([]);
  });

  test('a buyer saves a search, is mailed about a new matching car, sees it counted as new, and unsubscribes from the mail', async ({
    page,
    browser,
    playwright,
  }) => {
    test.setTimeout(60_000);
    const buyer = await signUpBuyer(page, 'Alex Alerts');
    // A word no other car has, so that only the car listed below matches.
    const word = `quokka${Date.now().toString(36)}`;
    await page.goto(`/cars?q=${word}&make=Toyota&priceMax=3000000`);
    await expect(page.getByRole('heading', { name: '0 cars' })).toBeVisible();

    await page.getByRole('button', { name: 'Save this search' }).click();
    // The dialog's suggested name, alerts and refusal: save-search-button.test.tsx.
    const dialog = page.getByRole('dialog', { name: 'Save this search' });
    const searchName = `Toyota ${word}`;
    await dialog.getByLabel('Name').fill(searchName);
    await dialog.getByRole('button', { name: 'Save search' }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Search saved')).toBeVisible();

    await test.step('until the address is confirmed, the page says why nothing is mailed', async () => {
      await page.goto('/dashboard/searches');
      const notice = page.getByRole('complementary', { name: 'We are not emailing you yet' });
      await expect(notice).toContainText(buyer.email);
      // One button mails the link: the dashboard's reminder's, not a second one in the notice.
      await expect(notice.getByRole('button')).toHaveCount(0);
      const reminder = page.getByRole('complementary', {
        name: 'Please confirm your email address',
      });
      await reminder.getByRole('button', { name: 'Send the link again' }).click();
      await expect(reminder).toContainText('Sent.');
      await confirmEmailApi(page.request, buyer.email);
      await page.reload();
      await expect(page.getByTestId('saved-search').filter({ hasText: searchName })).toBeVisible();
      await expect(notice).toBeHidden();
    });

    await test.step('the demo seller lists a car that matches', async () => {
      const seller = await otherSession(playwright);
      const signIn = await seller.post('/api/auth/sign-in/email', {
        data: { email: 'seller@demo.local', password: DEMO_PASSWORD },
      });
      expect(signIn.ok(), await signIn.text()).toBe(true);
      // A photo of one of its cars: the demo cars used up today's upload quota.
      const mine = (await (await seller.get('/api/my/listings')).json()) as MyListing[];
      const photo = mine.find((car) => car.images.length > 0)!.images[0]!.url;
      const created = await seller.post('/api/product?name=Microbus', {
        headers: fromSite,
        data: {
          name: `Toyota HiAce ${word}`,
          make: 'Toyota',
          model: 'HiAce',
          reprice: 2_450_000,
          orprice: 2_900_000,
          location: 'Austin, TX',
          year: 2021,
          condition: 'Good',
          describe: 'Eight seats, one owner.',
          images: [photo],
        },
      });
      expect(created.ok(), await created.text()).toBe(true);
      await seller.dispose();
    });

    const mail = await waitForMail(buyer.email, searchName);
    expect(mail.subject).toBe(`A new car matches "${searchName}"`);
    expect(mail.text).toContain(`Toyota HiAce ${word}`);
    expect(mail.headers?.['List-Unsubscribe']).toMatch(/\/api\/unsubscribe\?token=/);

    await page.goto('/dashboard/searches');
    const row = page.getByTestId('saved-search').filter({ hasText: searchName });
    await expect(row.getByText('1 new', { exact: true })).toBeVisible();
    await expect(row).toContainText('1 car matches now');
    await expect(row).toContainText(`“${word}” · Toyota · Up to $30,000`);

    // Opening it shows the car and marks the search seen: nothing is new on coming back.
    await row.getByRole('link', { name: `Open ${searchName}` }).click();
    await expect(page).toHaveURL(new RegExp(`/cars\\?.*q=${word}`));
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).getByRole('heading')).toHaveText(`Toyota HiAce ${word}`);
    await page.goBack();
    await expect(row).toContainText('1 car matches now');
    await expect(row.getByText('1 new', { exact: true })).toBeHidden();

    await test.step('the unsubscribe link in the mail works without signing in', async () => {
      const link = /Stop alerts for this search: (\S+)/.exec(mail.text)?.[1];
      expect(link).toBeDefined();
      const { pathname, search } = new URL(link!);
      const stranger = await browser.newContext({ baseURL: SITE });
      const tab = await stranger.newPage();
      await tab.goto(`${pathname}${search}`);
      await expect(
        tab.getByRole('heading', { level: 1, name: 'You’re unsubscribed' }),
      ).toBeVisible();
      await expect(tab.getByText(`alerts for your saved search "${searchName}"`)).toBeVisible();
      // Its links, and a broken link's words: unsubscribe-page.test.tsx.
      await stranger.close();
    });

    await page.reload();
    await expect(row.getByLabel('Email alerts')).toHaveValue('off');
  });

  test('a buyer renames a saved search, turns its alerts to a daily digest, and deletes it', async ({
    page,
  }) => {
    await signUpBuyer(page, 'Robin Renamer');
    await page.goto('/cars?fuel=electric');
    await page.getByRole('button', { name: 'Save this search' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save this search' });
    // The dialog has its suggested name (a component test checks its words): it is ready.
    await expect(dialog.getByLabel('Name')).toHaveValue('Electric');
    await dialog.getByRole('button', { name: 'Save search' }).click();
    await toast(page, 'Search saved').getByRole('link', { name: 'Saved searches' }).click();
    await expect(page).toHaveURL(/\/dashboard\/searches$/);

    const row = page.getByTestId('saved-search');
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: 'Rename Electric' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename saved search' });
    await rename.getByLabel('Name').fill('Quiet electric cars');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await expect(rename).toBeHidden();
    await expect(row.getByRole('heading', { name: 'Quiet electric cars' })).toBeVisible();

    await row.getByLabel('Email alerts').selectOption('daily');
    await expect(toast(page, 'Daily digest')).toBeVisible();
    await page.reload();
    await expect(row.getByLabel('Email alerts')).toHaveValue('daily');

    await row.getByRole('button', { name: 'Delete Quiet electric cars' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this saved search?' });
    await confirm.getByRole('button', { name: 'Delete search' }).click();
    await expect(page.getByText('You have no saved searches yet')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Saved searches' })).toBeFocused();
  });
});

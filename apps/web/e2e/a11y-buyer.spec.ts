import { expect, test, type Page } from '@playwright/test';

import {
  adminSession,
  A11Y_TEST_TIMEOUT,
  CATEGORY,
  state,
  uniqueMarker,
  userIdApi,
} from './a11y-helpers';
import {
  addCarApi,
  asNewSeller,
  confirmEmailApi,
  fromSite,
  otherSession,
  signUpBuyer,
  signUpSellerApi,
  SITE,
  scrollToAdvertised,
  waitForHydration,
  waitForMail,
  waitForPriceGuide,
} from './site';

/*
 * Accessibility of a buyer's account: My account, a car found and saved, saved searches and a
 * conversation (how these files work: a11y-helpers.ts).
 */

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

test.describe('accessibility: a buyer’s account, saved cars and searches, and messages', () => {
  test.describe.configure({ timeout: A11Y_TEST_TIMEOUT });

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
      await scrollToAdvertised(page);
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

  test('a buyer: deal badges, the Deal filter, and a car page’s price guide and price history', async ({
    page,
    playwright,
  }) => {
    const marker = uniqueMarker();
    const [ratedId, unratedId] = await asNewSeller(playwright, async (seller) => {
      await waitForPriceGuide(seller);
      // An EV6 of 2022 is worth about $33,000 among the demo cars' SUVs: a great deal at $20,000.
      const rated = await addCarApi(seller, `Kia EV6 ${marker}`, {
        category: CATEGORY,
        make: 'Kia',
        model: 'EV6',
        year: 2022,
        mileageKm: 40_000,
        bodyType: 'SUV',
        reprice: 2_050_000,
        orprice: 2_500_000,
      });
      const edited = await seller.put(`/api/listings/${rated}`, { data: { reprice: 2_000_000 } });
      expect(edited.ok(), await edited.text()).toBe(true);
      const unrated = await addCarApi(seller, `Homebuilt roadster ${marker}`, {
        category: CATEGORY,
        make: 'Other',
        model: 'Other',
        year: 1998,
        bodyType: null,
      });
      return [rated, unrated];
    });
    await signUpBuyer(page, 'Dee Dealhunter');
    const cards = page.getByTestId('listing-card');
    await state(page, 'the search page, a card with a deal badge and one without', async () => {
      await page.goto(`/cars?q=${marker}`);
      await expect(cards).toHaveCount(2);
      await expect(cards.getByTestId('deal-badge')).toHaveText('Great deal');
    });
    await state(page, 'the search page, Great deal ticked, best deals first', async () => {
      await page.goto(`/cars?q=${marker}&deal=great&sort=deal`);
      await waitForHydration(page);
      await expect(cards).toHaveCount(1);
      await expect(
        page
          .getByRole('list', { name: 'Filters in use' })
          .getByRole('button', { name: /Great deal/ }),
      ).toBeVisible();
    });
    await state(page, 'the Filters drawer on a phone, at its Deal group', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('button', { name: /^Filters/ }).click();
      const drawer = page.getByRole('dialog', { name: 'Filters' });
      await expect(drawer.getByRole('checkbox', { name: /^Great deal/ })).toBeChecked();
      await drawer.getByRole('group', { name: 'Deal' }).scrollIntoViewIfNeeded();
    });
    await state(
      page,
      'a car page, its price guide, time on the market and a change of price',
      async () => {
        await page.goto(`/listing/${ratedId}`);
        const guide = page.getByRole('region', { name: 'Price guide' });
        await expect(guide.getByTestId('deal-badge')).toHaveText('Great deal');
        await expect(
          page.getByTestId('price-history').getByRole('list', { name: 'Price changes' }),
        ).toHaveText(/^Price dropped from \$20,500 to \$20,000/);
      },
    );
    await state(page, 'a car page, not enough similar cars for its price guide', async () => {
      await page.goto(`/listing/${unratedId}`);
      await expect(page.getByRole('region', { name: 'Price guide' })).toContainText(
        'Not enough similar cars to rate this price',
      );
    });
  });
});

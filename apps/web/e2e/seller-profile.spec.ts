import type { SellerProfile } from '@carmarket/shared';
import { expect, test, type Page } from '@playwright/test';

import { adminSession, userIdApi } from './a11y-helpers';
import {
  addCarApi,
  expectNoAxeViolationsWideAndNarrow,
  fromSite,
  otherSession,
  signUpBuyerApi,
  signUpSellerApi,
  uniqueMarker,
} from './site';

/*
 * A seller's profile (issue 32): from a car's page, the seller's name leads to who they are and
 * their cars on sale, a page at a time.
 */
test.describe("a seller's profile", () => {
  test('a buyer follows the seller’s name from a car to their profile and their cars, at 1280 and 390 px', async ({
    page,
    playwright,
  }) => {
    test.setTimeout(120_000);
    const marker = uniqueMarker();
    const name = `Harbour Autos ${marker}`;
    const seller = await otherSession(playwright);
    const { email } = await signUpSellerApi(seller, name);
    // One more than a page of the profile's cars (12), the first listed oldest.
    const cars: string[] = [];
    for (let i = 1; i <= 13; i++) cars.push(await addCarApi(seller, `Harbour car ${i} ${marker}`));
    // Three buyers ask about the first car; the seller answers two, at once.
    for (const [i, answer] of [true, true, false].entries()) {
      const buyer = await otherSession(playwright);
      await signUpBuyerApi(buyer, `Asking Buyer ${i}`);
      const asked = await buyer.post(`/api/listings/${cars[0]}/messages`, {
        data: { body: 'Is it still for sale?' },
      });
      expect(asked.ok(), await asked.text()).toBe(true);
      const { conversationId } = (await asked.json()) as { conversationId: string };
      await buyer.dispose();
      if (answer) {
        const replied = await seller.post(`/api/conversations/${conversationId}/messages`, {
          data: { body: 'It is.' },
        });
        expect(replied.ok(), await replied.text()).toBe(true);
      }
    }
    await seller.dispose();
    const admin = await adminSession(playwright);
    const sellerId = await userIdApi(admin, email);
    expect((await admin.put(`/api/user/verify/${sellerId}`, { headers: fromSite })).ok()).toBe(
      true,
    );
    await admin.dispose();

    await signUpBuyerApi(page.request, 'Pat Profile');
    // The month the account was made in, as the API says it: today's month may be the next one.
    const profile = await page.request.get(`/api/sellers/${sellerId}`);
    expect(profile.ok(), await profile.text()).toBe(true);
    const { memberSince } = (await profile.json()) as SellerProfile;
    const month = new Date(memberSince).toLocaleString('en-US', { month: 'long', year: 'numeric' });

    const followFromCar = async (carPage: Page) => {
      await carPage.goto(`/listing/${cars[0]}`);
      await expect(carPage.getByRole('heading', { level: 1 })).toHaveText(
        `Harbour car 1 ${marker}`,
      );
      await expect(carPage.getByTestId('seller-facts')).toHaveText(
        `Member since ${month} · Usually replies within an hour`,
      );
      await carPage.getByRole('link', { name, exact: true }).click();
      await expect(carPage).toHaveURL(`/sellers/${sellerId}`);
      await expect(carPage.getByRole('heading', { level: 1, name })).toBeVisible();
    };

    await page.setViewportSize({ width: 1280, height: 900 });
    await followFromCar(page);
    await expect(page).toHaveTitle(new RegExp(`^${name}, seller \\|`));
    const header = page.getByTestId('seller-header');
    await expect(header.getByText('Verified seller')).toBeVisible();
    await expect(header.getByText(`Member since ${month}`)).toBeVisible();
    await expect(header.getByText('13 cars on sale')).toBeVisible();
    await expect(header.getByText('0 cars sold')).toBeVisible();
    await expect(
      header.getByText('Usually replies within an hour · Replies to 67% of buyers'),
    ).toBeVisible();

    const list = page.getByRole('region', { name: `Cars on sale by ${name}` });
    const cards = list.getByTestId('seller-cars').locator(':scope > li');
    await expect(cards).toHaveCount(12);
    // Newest first: the last listed leads, the first waits for the next page.
    await expect(cards.first()).toContainText(`Harbour car 13 ${marker}`);
    await expect(list.getByText('Showing 12 of 13')).toBeVisible();
    await list.getByRole('button', { name: 'Load more cars' }).click();
    await expect(cards).toHaveCount(13);
    await expect(cards.last()).toContainText(`Harbour car 1 ${marker}`);
    await expect(list.getByRole('button', { name: 'Load more cars' })).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectNoAxeViolationsWideAndNarrow(page);

    await page.setViewportSize({ width: 390, height: 844 });
    await followFromCar(page);
    await expect(page.getByText('13 cars on sale')).toBeVisible();
    await expect(page.getByTestId('seller-cars').locator(':scope > li')).toHaveCount(12);
  });

  test('a seller with nothing on sale says so; an id that is no seller’s is not found', async ({
    page,
    playwright,
  }) => {
    const seller = await otherSession(playwright);
    const name = `Quiet Motors ${uniqueMarker()}`;
    const { email } = await signUpSellerApi(seller, name);
    await seller.dispose();
    const admin = await adminSession(playwright);
    const sellerId = await userIdApi(admin, email);
    await admin.dispose();
    const buyer = await signUpBuyerApi(page.request, 'Nell Nosy');

    await page.goto(`/sellers/${sellerId}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByTestId('seller-header').getByText('Verified seller')).toHaveCount(0);
    await expect(page.getByText('No cars on sale right now')).toBeVisible();
    // No conversations to say how the seller replies: nothing is said.
    await expect(
      page.getByTestId('seller-header').getByText(/Usually replies|Replies to/),
    ).toHaveCount(0);
    await expectNoAxeViolationsWideAndNarrow(page);

    // A buyer has no profile.
    const adminAgain = await adminSession(playwright);
    const buyerId = await userIdApi(adminAgain, buyer.email);
    await adminAgain.dispose();
    await page.goto(`/sellers/${buyerId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await expect(page.getByText('We could not find this seller')).toBeVisible();
  });
});

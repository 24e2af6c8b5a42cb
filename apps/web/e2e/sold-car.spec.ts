import { expect, test } from '@playwright/test';

import {
  addCarApi,
  bookCarApi,
  expectNoAxeViolationsWideAndNarrow,
  fromSite,
  otherSession,
  payApi,
  signUpBuyerApi,
  signUpSellerApi,
  uniqueMarker,
} from './site';

/*
 * A sold or withdrawn car's page (issue 32): the link in a saved car or an alert's mail leads to
 * a page that says so, shows the car and offers similar cars on sale; nothing on it books or asks.
 */
test.describe('a car that is no longer for sale', () => {
  test('a sold car’s page says when it was sold, offers nothing to book and shows similar cars', async ({
    page,
    playwright,
  }) => {
    test.setTimeout(90_000);
    const marker = uniqueMarker();
    // A model of its own (the site knows it), so the similar cars are this test's.
    const car = { make: 'Dacia', model: 'Jogger', bodyType: 'Estate', year: 2019 };
    const seller = await otherSession(playwright);
    await signUpSellerApi(seller);
    const soldName = `Dacia Jogger Gold ${marker}`;
    const soldId = await addCarApi(seller, soldName, { ...car, reprice: 1_200_000 });
    const similar = [
      await addCarApi(seller, `Dacia Jogger Silver ${marker}`, { ...car, reprice: 1_250_000 }),
      await addCarApi(seller, `Dacia Jogger Blue ${marker}`, { ...car, reprice: 1_100_000 }),
    ];
    const withdrawnName = `Dacia Jogger Grey ${marker}`;
    const withdrawnId = await addCarApi(seller, withdrawnName, car);
    expect(
      (await seller.post(`/api/listings/${withdrawnId}/withdraw`, { headers: fromSite })).ok(),
    ).toBe(true);
    await seller.dispose();

    const owner = await otherSession(playwright);
    await signUpBuyerApi(owner, 'Olive Owner');
    await payApi(owner, await bookCarApi(owner, soldId));
    await owner.dispose();

    await signUpBuyerApi(page.request, 'Bea Browser');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/listing/${soldId}`);
    await expect(page.getByRole('heading', { level: 1, name: soldName })).toBeVisible();
    const notice = page.getByTestId('ended-notice');
    await expect(notice).toContainText(/This car was sold on [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await expect(page.getByText('Last asking price')).toBeVisible();
    await expect(page.getByRole('button', { name: /Book now/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Ask the seller/ })).toHaveCount(0);

    // The similar cars load as their row comes near the screen: the two on sale, not the
    // withdrawn one.
    await notice.getByRole('button', { name: 'See similar cars on sale' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Similar cars' })).toBeFocused();
    const row = page.getByTestId('similar-cars');
    for (const id of similar)
      await expect(row.locator(`a[href="/listing/${id}"]`).first()).toBeVisible();
    await expect(row.getByText(withdrawnName)).toHaveCount(0);
    await expect(row.getByText(soldName)).toHaveCount(0);
    await expectNoAxeViolationsWideAndNarrow(page);

    // A withdrawn car's page says it is no longer listed, and its similar cars are the same kind.
    await page.goto(`/listing/${withdrawnId}`);
    await expect(page.getByTestId('ended-notice')).toContainText('This car is no longer listed');
    await expect(page.getByRole('button', { name: /Book now/ })).toHaveCount(0);
    await page.getByTestId('ended-notice').getByRole('button').click();
    await expect(
      page.getByTestId('similar-cars').locator(`a[href="/listing/${similar[0]}"]`).first(),
    ).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectNoAxeViolationsWideAndNarrow(page);
  });
});

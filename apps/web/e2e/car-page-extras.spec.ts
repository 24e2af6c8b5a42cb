import { expect, test, type Page } from '@playwright/test';

import {
  addCarApi,
  bookCarApi,
  expectNoAxeViolationsWideAndNarrow,
  fromSite,
  otherSession,
  payApi,
  signInApi,
  signUpBuyerApi,
  signUpSellerApi,
  uniqueMarker,
  waitForHydration,
} from './site';

/*
 * What a car page keeps in the browser (issue 32): the cars a person opened last, on the home page
 * and in a search that found nothing; and the monthly payment estimate, whose choice the next car
 * starts from. At 1280 px and at 390 px.
 */
const WIDTHS = [
  [1280, 900],
  [390, 844],
] as const;

/** The person's recently viewed lists, as the browser keeps them. */
const keptLists = (page: Page) =>
  page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith('recently-viewed:'))
      .map((key) => JSON.parse(localStorage.getItem(key)!) as string[]),
  );

async function openCar(page: Page, id: string, name: string) {
  await page.goto(`/listing/${id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await waitForHydration(page);
}

for (const [width, height] of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize({ width, height }));

    test('recently viewed cars: newest first on the home page and in an empty search, sold as sold, each person their own, cleared', async ({
      page,
      playwright,
    }) => {
      test.setTimeout(120_000);
      const marker = uniqueMarker();
      const names = ['Amber', 'Beige', 'Cyan', 'Dune'].map(
        (colour) => `Skoda Yeti ${colour} ${marker}`,
      );
      const seller = await otherSession(playwright);
      await signUpSellerApi(seller);
      const ids: string[] = [];
      for (const name of names) ids.push(await addCarApi(seller, name, { reprice: 1_500_000 }));
      await seller.dispose();
      const [amber, beige, cyan, dune] = ids as [string, string, string, string];

      const first = await signUpBuyerApi(page.request, 'Rhea Recent');
      await openCar(page, amber, names[0]!);
      await openCar(page, beige, names[1]!);
      await openCar(page, cyan, names[2]!);
      await expect.poll(() => keptLists(page)).toEqual([[cyan, beige, amber]]);

      // Since then: Amber was sold to someone else, and a car the list kept is gone altogether.
      const other = await otherSession(playwright);
      await signUpBuyerApi(other, 'Olive Owner');
      await payApi(other, await bookCarApi(other, amber));
      await other.dispose();
      const gone = '00000000-0000-4000-8000-00000000dead';
      await page.evaluate((id) => {
        const key = Object.keys(localStorage).find((each) => each.startsWith('recently-viewed:'))!;
        localStorage.setItem(key, JSON.stringify([id, ...JSON.parse(localStorage.getItem(key)!)]));
      }, gone);

      await page.goto('/');
      const row = page.getByRole('region', { name: 'Recently viewed' });
      const cars = row.getByTestId('recently-viewed-car');
      await expect(cars.locator('h3')).toHaveText([names[2]!, names[1]!, names[0]!]);
      // The sold car says so, with no price to buy it at; the others show theirs.
      await expect(cars.nth(2)).toContainText('Sold');
      await expect(cars.nth(2).getByTestId('listing-price')).toHaveCount(0);
      await expect(cars.nth(0).getByTestId('listing-price')).toHaveText('$15,000');
      // The car that is gone left the list.
      await expect.poll(() => keptLists(page)).toEqual([[cyan, beige, amber]]);
      await row.scrollIntoViewIfNeeded();
      await expectNoAxeViolationsWideAndNarrow(page);
      await page.setViewportSize({ width, height });

      // A search that finds nothing offers them too.
      await page.goto(`/cars?q=${encodeURIComponent(`nothing like ${marker}`)}`);
      await expect(page.getByText('No cars match this search')).toBeVisible();
      await expect(
        page
          .getByRole('region', { name: 'Recently viewed' })
          .getByTestId('recently-viewed-car')
          .locator('h3'),
      ).toHaveText([names[2]!, names[1]!, names[0]!]);
      await expectNoAxeViolationsWideAndNarrow(page);
      await page.setViewportSize({ width, height });

      // The next person on this browser sees only the cars they opened.
      await page.context().clearCookies();
      await signUpBuyerApi(page.request, 'Sid Second');
      await openCar(page, dune, names[3]!);
      await page.goto('/');
      await expect(row.getByTestId('recently-viewed-car').locator('h3')).toHaveText([names[3]!]);

      // Back to the first person, who clears theirs: the row goes, and stays gone.
      await signInApi(page.request, first.email, first.password);
      await page.goto('/');
      await expect(cars).toHaveCount(3);
      await row.getByRole('button', { name: 'Clear recently viewed cars' }).click();
      await expect(cars).toHaveCount(0);
      await expect(row.getByRole('status')).toHaveText(
        'Cleared. Cars you open will show here again.',
      );
      await expect(row.getByRole('status')).toBeFocused();
      await expectNoAxeViolationsWideAndNarrow(page);
      await page.setViewportSize({ width, height });
      expect(await keptLists(page)).toEqual([[dune]]);
      await page.reload();
      await waitForHydration(page);
      await expect(page.getByRole('heading', { name: 'Find the right kind of car' })).toBeVisible();
      await expect(row).toHaveCount(0);
    });

    test('recently viewed: a removed car says Removed to an admin, and a deleted account leaves no list', async ({
      page,
      playwright,
    }) => {
      test.setTimeout(90_000);
      const marker = uniqueMarker();
      const gone = `Kia Ceed Slate ${marker}`;
      const kept = `Kia Ceed Teal ${marker}`;
      const seller = await otherSession(playwright);
      await signUpSellerApi(seller);
      const goneId = await addCarApi(seller, gone, { reprice: 1_400_000 });
      const keptId = await addCarApi(seller, kept, { reprice: 1_600_000 });
      await seller.dispose();

      // An admin opens a car, then removes it: their row says so, with no price.
      await signInApi(page.request, 'admin@demo.local');
      await openCar(page, goneId, gone);
      const removed = await page.request.post(`/api/listings/${goneId}/remove`, {
        headers: fromSite,
        data: { reason: 'The photos show a different car.' },
      });
      expect(removed.ok(), await removed.text()).toBe(true);
      await page.goto('/');
      const tile = page
        .getByRole('region', { name: 'Recently viewed' })
        .getByTestId('recently-viewed-car');
      await expect(tile.locator('h3')).toHaveText([gone]);
      await expect(tile.getByTestId('recently-viewed-status')).toHaveText('Removed');
      await expect(tile.getByTestId('listing-price')).toHaveCount(0);

      // A buyer on the same browser opens a car, then deletes their account: their list goes,
      // the admin's stays.
      await page.context().clearCookies();
      const buyer = await signUpBuyerApi(page.request, 'Della Deleting');
      await openCar(page, keptId, kept);
      await expect.poll(() => keptLists(page)).toHaveLength(2);
      await page.goto('/dashboard/settings#delete');
      const section = page.getByRole('region', { name: 'Delete my account' });
      const open = section.getByRole('button', { name: 'Delete my account…' });
      await expect(open).toBeEnabled();
      await open.click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
      await dialog.getByLabel('Your password').fill(buyer.password);
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await expect(page.getByText('Your account was deleted.')).toBeVisible();
      expect(await keptLists(page)).toEqual([[goneId]]);
    });

    test('monthly payment estimate: follows deposit, term and APR, says what is wrong, and the next car starts from the choice', async ({
      page,
      playwright,
    }) => {
      test.setTimeout(90_000);
      const marker = uniqueMarker();
      const seller = await otherSession(playwright);
      await signUpSellerApi(seller);
      const first = `Mazda CX-5 Plum ${marker}`;
      const second = `Mazda CX-5 Sand ${marker}`;
      const firstId = await addCarApi(seller, first, { reprice: 2_000_000, orprice: 2_000_000 });
      // An odd price: the choice's 25% of it is 8,675, started at a round 8,700.
      const secondId = await addCarApi(seller, second, { reprice: 3_470_000, orprice: 3_470_000 });
      await seller.dispose();
      await signUpBuyerApi(page.request, 'Pat Payments');

      await openCar(page, firstId, first);
      const estimate = page.getByTestId('payment-estimate');
      await estimate.scrollIntoViewIfNeeded();
      const calculator = page.getByRole('region', { name: 'Monthly payment estimate' });
      await expect(calculator).toContainText('not an offer of credit');
      const deposit = calculator.getByLabel('Deposit (USD)');
      const term = calculator.getByLabel('Term (months)');
      const apr = calculator.getByLabel('APR (%)');
      const monthly = calculator.getByTestId('monthly-payment');
      // The defaults: 10% down, 60 months at 7.9%.
      await expect(deposit).toHaveValue('2,000');
      await expect(term).toHaveValue('60');
      await expect(apr).toHaveValue('7.9');
      await expect(monthly).toHaveText('$364.11');

      // Only the monthly payment is announced, once typing pauses: not each keystroke's figure.
      const announcement = calculator.getByTestId('payment-announcement');
      await expect(calculator.locator('[aria-live], [role="status"]')).toHaveCount(1);
      await announcement.evaluate((node) => {
        const heard: string[] = [];
        Object.assign(window, { heard });
        new MutationObserver(() => heard.push(node.textContent ?? '')).observe(node, {
          childList: true,
          subtree: true,
          characterData: true,
        });
      });
      await apr.clear();
      await apr.pressSequentially('6.5', { delay: 100 });
      await expect(announcement).toHaveText('Monthly payment $352.19');
      expect(await page.evaluate(() => (window as unknown as { heard: string[] }).heard)).toEqual([
        'Monthly payment $352.19',
      ]);

      await deposit.fill('0');
      await apr.fill('6');
      await expect(monthly).toHaveText('$386.66');
      await expect(calculator.getByTestId('total-cost')).toHaveText('$23,200');
      await expect(calculator.getByTestId('total-interest')).toHaveText('$3,200');
      await term.fill('48');
      await expect(monthly).toHaveText('$469.70');
      await deposit.fill('5,000');
      await expect(monthly).toHaveText('$352.28');
      await expect(calculator.getByTestId('total-cost')).toHaveText('$21,909');
      await apr.fill('0');
      await expect(monthly).toHaveText('$312.50');
      await expect(calculator.getByTestId('total-interest')).toHaveText('$0');

      // A deposit above the price: the field says so, and no figure is given.
      await deposit.fill('25,000');
      await expect(deposit).toHaveAttribute('aria-invalid', 'true');
      await expect(deposit).toHaveAccessibleDescription(
        'The deposit must be less than the price of the car.',
      );
      await expect(monthly).toHaveCount(0);
      await apr.fill('60');
      await expect(apr).toHaveAccessibleDescription('The APR must be from 0% to 50%.');
      await estimate.scrollIntoViewIfNeeded();
      await expectNoAxeViolationsWideAndNarrow(page);
      await page.setViewportSize({ width, height });

      // Put right: 25% down, 48 months at 6%; the next car starts from that choice.
      await deposit.fill('5,000');
      await apr.fill('6');
      await expect(monthly).toHaveText('$352.28');
      await openCar(page, secondId, second);
      await page.getByTestId('payment-estimate').scrollIntoViewIfNeeded();
      await expect(deposit).toHaveValue('8,700');
      await expect(term).toHaveValue('48');
      await expect(apr).toHaveValue('6');
      // 26,000 at 6% over 48 months.
      await expect(monthly).toHaveText('$610.61');
      // Long figures (all 34,700 over 12 months) never touch: side by side, a clear gap between
      // them (wrapped where there is no room).
      await deposit.fill('0');
      await term.fill('12');
      await expect(monthly).toHaveText('$2,986.51');
      await expect(calculator.getByTestId('total-cost')).toHaveText('$35,838');
      const boxes = await calculator.locator('dd').evaluateAll((dds) =>
        dds.map((dd) => {
          const range = document.createRange();
          range.selectNodeContents(dd);
          const box = range.getBoundingClientRect();
          return { left: box.left, right: box.right, top: box.top, bottom: box.bottom };
        }),
      );
      expect(boxes).toHaveLength(3);
      for (const [index, a] of boxes.entries())
        for (const b of boxes.slice(index + 1)) {
          const sameRow = a.top < b.bottom && b.top < a.bottom;
          if (sameRow)
            expect(
              Math.max(b.left - a.right, a.left - b.right),
              `figures apart at ${width} px`,
            ).toBeGreaterThanOrEqual(16);
        }
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectNoAxeViolationsWideAndNarrow(page);
    });
  });
}

test('the seller link loads the seller page’s code as it is pointed at: no full-page Loading… between them (walk-through)', async ({
  page,
  playwright,
}) => {
  const name = `Kia Niro Plum ${uniqueMarker()}`;
  const seller = await otherSession(playwright);
  await signUpSellerApi(seller);
  const id = await addCarApi(seller, name);
  await seller.dispose();
  await signUpBuyerApi(page.request, 'Lee Looker');
  await page.setViewportSize({ width: 1280, height: 900 });
  await openCar(page, id, name);
  const link = page.locator('main a[href^="/sellers/"]').first();
  const code = page.waitForResponse((response) =>
    /\/assets\/seller-[\w-]+\.js$/.test(new URL(response.url()).pathname),
  );
  await link.hover();
  await code;
  await page.evaluate(() => {
    const seen = { loading: false };
    Object.assign(window, { seen });
    new MutationObserver(() => {
      if (document.body.innerText.includes('Loading…')) seen.loading = true;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await link.click();
  await expect(page).toHaveURL(/\/sellers\//);
  await expect(page.getByRole('heading', { level: 1, name: 'Sam Seller' })).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { seen: { loading: boolean } }).seen.loading),
  ).toBe(false);
});

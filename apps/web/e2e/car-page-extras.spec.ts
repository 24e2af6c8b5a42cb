import { expect, test, type Page, type Request } from '@playwright/test';

import {
  addCarApi,
  expectNoAxeViolationsWideAndNarrow,
  fromSite,
  otherSession,
  signInApi,
  signUpBuyerApi,
  signUpSellerApi,
  uniqueMarker,
  waitForHydration,
} from './site';

/*
 * What a car page keeps in the browser (issue 32): the cars a person opened last, on the home page
 * and in a search that found nothing; and the monthly payment estimate, whose choice the next car
 * starts from. The row's and the calculator's states (order, Sold and Removed, Clear, each
 * person's own list, the arithmetic, the words for a wrong field, what is announced) are checked
 * beside their components: recently-viewed.test.tsx, payment-calculator.test.tsx.
 */

async function openCar(page: Page, id: string, name: string) {
  await page.goto(`/listing/${id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await waitForHydration(page);
}

test('recently viewed cars: the cars opened show newest first on the home page and in an empty search, a removed one as Removed to an admin', async ({
  page,
  playwright,
}) => {
  test.setTimeout(90_000);
  const marker = uniqueMarker();
  const [amber, beige] = ['Amber', 'Beige'].map((colour) => `Skoda Yeti ${colour} ${marker}`) as [
    string,
    string,
  ];
  const seller = await otherSession(playwright);
  await signUpSellerApi(seller);
  const amberId = await addCarApi(seller, amber, { reprice: 1_500_000 });
  const beigeId = await addCarApi(seller, beige, { reprice: 1_500_000 });
  await seller.dispose();

  // An admin opens two cars, then removes the first: the server still shows it to them.
  await signInApi(page.request, 'admin@demo.local');
  await page.setViewportSize({ width: 1280, height: 900 });
  await openCar(page, amberId, amber);
  await openCar(page, beigeId, beige);
  const removed = await page.request.post(`/api/listings/${amberId}/remove`, {
    headers: fromSite,
    data: { reason: 'The photos show a different car.' },
  });
  expect(removed.ok(), await removed.text()).toBe(true);

  await page.goto('/');
  const row = page.getByRole('region', { name: 'Recently viewed' });
  const cars = row.getByTestId('recently-viewed-car');
  await expect(cars.locator('h3')).toHaveText([beige, amber]);
  await expect(cars.nth(0).getByTestId('listing-price')).toHaveText('$15,000');
  await expect(cars.nth(1).getByTestId('recently-viewed-status')).toHaveText('Removed');
  await expect(cars.nth(1).getByTestId('listing-price')).toHaveCount(0);
  await row.scrollIntoViewIfNeeded();
  await expectNoAxeViolationsWideAndNarrow(page);

  // A search that finds nothing offers them too.
  await page.goto(`/cars?q=${encodeURIComponent(`nothing like ${marker}`)}`);
  await expect(page.getByText('No cars match this search')).toBeVisible();
  await expect(cars.locator('h3')).toHaveText([beige, amber]);
  await expectNoAxeViolationsWideAndNarrow(page);
});

test('monthly payment estimate: loads near view on the car page, the next car starts from the choice, its figures never touch', async ({
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
  await page.setViewportSize({ width: 1280, height: 900 });

  await openCar(page, firstId, first);
  await page.getByTestId('payment-estimate').scrollIntoViewIfNeeded();
  const calculator = page.getByRole('region', { name: 'Monthly payment estimate' });
  const deposit = calculator.getByLabel('Deposit (USD)');
  const term = calculator.getByLabel('Term (months)');
  const apr = calculator.getByLabel('APR (%)');
  const monthly = calculator.getByTestId('monthly-payment');
  // The defaults: 10% down, 60 months at 7.9%.
  await expect(monthly).toHaveText('$364.11');

  // 25% down, 48 months at 6%; the next car starts from that choice.
  await deposit.fill('5,000');
  await term.fill('48');
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
  // them (wrapped where there is no room), at 1280 px and at 390 px.
  await deposit.fill('0');
  await term.fill('12');
  await expect(monthly).toHaveText('$2,986.51');
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
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
  }
  await page.getByTestId('payment-estimate').scrollIntoViewIfNeeded();
  await expectNoAxeViolationsWideAndNarrow(page);
});

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
  // The page's code is its chunk and the chunks and styles it imports: all of them have arrived
  // before the click, as they have when a person points at a link and then clicks it.
  const loading = new Set<Request>();
  const track = (request: Request) => {
    if (['script', 'stylesheet'].includes(request.resourceType())) loading.add(request);
  };
  const done = (request: Request) => loading.delete(request);
  page.on('request', track);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  await link.hover();
  await code;
  await expect.poll(() => loading.size).toBe(0);
  page.off('request', track);
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

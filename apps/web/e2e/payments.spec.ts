import { expect as baseExpect, test, type APIRequestContext } from '@playwright/test';

import { fromSite, newCarOnSale, otherSession, signUpBuyer, signUpBuyerApi, SITE } from './site';

/**
 * The payment and category pages load their code, the session and then their data before they
 * show anything: on a machine busy with other work that has taken 15 s and more.
 */
const expect = baseExpect.configure({ timeout: 30_000 });

/** Two years ahead, as a card's expiry year in two digits. */
const YY = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');

async function book(request: APIRequestContext, listingId: string): Promise<string> {
  const response = await request.post('/api/category', {
    headers: fromSite,
    data: { listingId, userPhone: '+1 503 555 0100', userLocation: 'Portland, OR' },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { insertedId: string }).insertedId;
}

test.describe('paying', () => {
  // Each test opens a few payment or category pages, which can be slow (`expect`, above).
  test.describe.configure({ timeout: 60_000 });

  test('opening the payment page holds nothing; pressing Pay holds the car, listed as Reserved, one car per buyer (rough edge 3)', async ({
    page,
    context,
    browser,
    playwright,
  }) => {
    // Two buyers, two cars, three browsers and two payments: in a CI run beside another file,
    // 60 s ran out with every step answered (the second tab's refusal came 38 s after Pay).
    test.setTimeout(120_000);
    await signUpBuyer(page);
    const { category, car } = await newCarOnSale(page, playwright, 'Electric car');
    const { car: second } = await newCarOnSale(page, playwright, 'Electric car');
    const bookingId = await book(page.request, car._id);
    const secondBookingId = await book(page.request, second._id);
    // Another buyer, in a browser of their own, watches the category page.
    const watching = await browser.newContext({ baseURL: SITE, reducedMotion: 'reduce' });
    const watcher = await watching.newPage();
    await signUpBuyer(watcher, 'Wren Watcher');
    const carCard = watcher
      .getByTestId('listing-card')
      .filter({ has: watcher.getByRole('heading', { name: car.name, exact: true }) });

    // Opening (and reopening) the payment page keeps the car listed and free.
    await page.goto(`/dashboard/payment/${bookingId}`);
    await expect(page.getByLabel('Card number')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Card number')).toBeVisible();
    await watcher.goto(`/category/${category._id}`);
    await expect(carCard).toBeVisible();
    await expect(carCard.getByText(/Reserved/)).toHaveCount(0);

    // Pressing Pay holds it while the card is confirmed (the processor is kept waiting here).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/payments/sandbox/confirm', async (route) => {
      await released;
      await route.continue();
    });
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill(`12/${YY}`);
    await page.getByLabel('CVC').fill('123');
    // "Processing…" shows at the click, before the hold is answered: the watcher looks after it.
    const held = page.waitForResponse(
      (response) => response.url().endsWith('/api/payments/hold') && response.ok(),
    );
    await page.getByRole('button', { name: /^Pay / }).click();
    await expect(page.getByRole('button', { name: 'Processing…' })).toBeVisible();
    await held;

    await watcher.reload();
    await expect(carCard.getByText(/^Reserved until \d/)).toBeVisible();
    await watching.close();

    // While it is held, this buyer cannot hold a second car (in another window).
    const elsewhere = await browser.newContext({
      baseURL: SITE,
      reducedMotion: 'reduce',
      storageState: await context.storageState(),
    });
    const tab = await elsewhere.newPage();
    await tab.goto(`/dashboard/payment/${secondBookingId}`);
    await tab.getByLabel('Card number').fill('4242 4242 4242 4242');
    await tab.getByLabel('Expiry (MM/YY)').fill(`12/${YY}`);
    await tab.getByLabel('CVC').fill('123');
    const paySecond = tab.getByRole('button', { name: /^Pay / });
    await paySecond.click();
    await expect(tab.getByRole('alert')).toContainText(
      `You are already paying for the ${car.name}. Finish or cancel that payment first.`,
    );

    // Once the first payment goes through, the second car can be paid for.
    release();
    await expect(
      page.getByRole('heading', { name: 'Congrats! Your payment is complete' }),
    ).toBeVisible();
    await paySecond.click();
    await expect(
      tab.getByRole('heading', { name: 'Congrats! Your payment is complete' }),
    ).toBeVisible();
    await elsewhere.close();
  });

  test('another buyer’s payment link says it is not yours and leads back to My Orders (rough edge 11)', async ({
    page,
    playwright,
  }) => {
    const owner = await otherSession(playwright);
    await signUpBuyerApi(owner, 'Olive Owner');
    await signUpBuyer(page);
    const { car } = await newCarOnSale(page, playwright, 'Electric car');
    const ownersBooking = await book(owner, car._id);
    await owner.dispose();

    await page.goto(`/dashboard/payment/${ownersBooking}`);
    const notice = page.getByRole('region', { name: 'We could not find this booking' });
    await expect(notice).toContainText('it may belong to another account');
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await notice.getByRole('link', { name: 'Back to My Orders' }).click();
    await expect(page).toHaveURL('/dashboard/orders');
  });
});

import {
  DEAL_RATING_LABELS,
  DEAL_RATINGS,
  type DealRating,
  type SearchResult,
} from '@carmarket/shared';
import { expect, test, type Page } from '@playwright/test';

import {
  addCarApi,
  type CarDetails,
  expectNoAxeViolationsWideAndNarrow,
  otherSession,
  signUpBuyer,
  signUpSellerApi,
  waitForHydration,
} from './site';

const cards = (page: Page) => page.getByTestId('listing-card');
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/h/shots';

test.describe('finding a good deal', () => {
  test('a buyer ticks Great deal, sees only great deals, and sorts best deals first', async ({
    page,
    playwright,
  }) => {
    test.setTimeout(120_000);
    await signUpBuyer(page, 'Dee Dealhunter');

    // A great deal of the test's own: a seller prices a car 30 % under what the guide says cars
    // like one already rated are worth (the guide rates a new car from the last fit at once).
    const rated = (await (
      await page.request.get('/api/listings?deal=fair,good,high&limit=1')
    ).json()) as SearchResult;
    const like = rated.items[0];
    expect(like, 'the demo cars have a price guide').toBeDefined();
    const seller = await otherSession(playwright);
    await signUpSellerApi(seller, 'Gus Guide');
    const mileageKm = like!.mileageKm ?? 60_000;
    const described = new URLSearchParams({
      make: like!.make,
      model: like!.model,
      year: String(like!.year),
      mileageKm: String(mileageKm),
      ...(like!.bodyType && { bodyType: like!.bodyType }),
    });
    const guide = await seller.get(`/api/price-guide?${described}`);
    expect(guide.ok(), await guide.text()).toBe(true);
    const { fair } = (await guide.json()) as { fair: number };
    const name = `${like!.make} ${like!.model} bargain ${Math.random().toString(36).slice(2, 6)}`;
    // The year too (addCarApi's own is 2021): the car's age is part of its price guide.
    const details: CarDetails & { year: number; bodyType?: string } = {
      make: like!.make,
      model: like!.model,
      year: like!.year,
      ...(like!.bodyType && { bodyType: like!.bodyType }),
      mileageKm,
      reprice: Math.round(fair * 0.7),
      orprice: fair,
    };
    await addCarApi(seller, name, details);
    await seller.dispose();

    await page.goto('/cars');
    await waitForHydration(page);
    const filters = page.getByRole('complementary', { name: 'Filters' });
    const deal = filters.getByRole('group', { name: 'Deal' });
    await expect(deal.getByRole('checkbox', { name: /^Great deal/ })).toBeVisible();
    // Ratings are listed best first, in the words the cards use.
    const labels = (await deal
      .getByRole('checkbox')
      .evaluateAll((boxes) =>
        boxes.map((box) => box.closest('label')!.querySelector('span')!.textContent),
      )) as string[];
    const order = DEAL_RATINGS.map((rating) => DEAL_RATING_LABELS[rating]);
    expect(order).toEqual(['Great deal', 'Good deal', 'Fair deal', 'High price', 'Overpriced']);
    expect(labels).toEqual(order.filter((label) => labels.includes(label)));

    await deal.getByRole('checkbox', { name: /^Great deal/ }).click();
    await expect(page).toHaveURL(/deal=great/);
    const api = (await (
      await page.request.get('/api/listings?deal=great&limit=48')
    ).json()) as SearchResult;
    expect(api.items.some((car) => car.name === name)).toBe(true);
    await expect(
      page.getByRole('heading', { name: `${api.total} ${api.total === 1 ? 'car' : 'cars'}` }),
    ).toBeVisible();
    await expect(cards(page)).toHaveCount(Math.min(api.total, 24));
    const badges = cards(page).getByTestId('deal-badge');
    await expect(badges).toHaveCount(Math.min(api.total, 24));
    for (const text of await badges.allTextContents()) expect(text).toBe('Great deal');
    const inUse = page.getByRole('list', { name: 'Filters in use' });
    await expect(inUse.getByRole('button', { name: /Great deal/ })).toBeVisible();

    // Every rating again, best deals first: ratings never get worse down the page.
    await inUse.getByRole('button', { name: /Great deal/ }).click();
    await expect(page).not.toHaveURL(/deal=great/);
    await page.getByLabel('Sort').selectOption({ label: 'Best deals first' });
    await expect(page).toHaveURL(/sort=deal/);
    await expect(cards(page).first()).toBeVisible();
    const sorted = (await (
      await page.request.get('/api/listings?sort=deal&limit=24')
    ).json()) as SearchResult;
    await expect(cards(page).first().getByRole('heading')).toHaveText(sorted.items[0]!.name);
    const ratings = await cards(page).evaluateAll((all) =>
      all.map((card) =>
        card.querySelector('[data-testid="deal-badge"]')?.getAttribute('data-rating'),
      ),
    );
    // Unrated cars (no badge) after every rated one.
    const ranks = ratings.map((rating) =>
      rating ? DEAL_RATINGS.indexOf(rating as DealRating) : DEAL_RATINGS.length,
    );
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(ranks[0]).toBe(0);

    await deal.getByRole('checkbox', { name: /^Great deal/ }).click();
    await expect(page).toHaveURL(/deal=great/);
    await expect(badges.first()).toBeVisible();
    await expectNoAxeViolationsWideAndNarrow(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/search-deal-1280.png`, fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/search-deal-390.png`, fullPage: false });
    await page.getByRole('button', { name: /^Filters/ }).click();
    const drawer = page.getByRole('dialog', { name: 'Filters' });
    await expect(drawer.getByRole('checkbox', { name: /^Great deal/ })).toBeChecked();
    await drawer.getByRole('group', { name: 'Deal' }).scrollIntoViewIfNeeded();
    await expectNoAxeViolationsWideAndNarrow(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/search-deal-filters-390.png`, fullPage: false });
  });
});

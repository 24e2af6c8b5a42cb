import { DEAL_RATINGS, type DealRating, type SearchResult } from '@carmarket/shared';
import { expect, test, type Page } from '@playwright/test';

import {
  addCarApi,
  asNewSeller,
  signUpBuyer,
  uniqueMarker,
  waitForHydration,
  waitForPriceGuide,
} from './site';

/*
 * The search page's Deal filter and its Best deals first order. Other files list cars meanwhile
 * (two run at once), great deals among them: the page is compared with its own answers from the
 * server, never with a later search's, and the test's own car is found by its marker.
 */

const cards = (page: Page) => page.getByTestId('listing-card');

/**
 * The page's next search answer (a first page, with its facets) whose parameters include
 * `wanted`; a null there is a parameter the search must not have.
 */
function nextSearch(page: Page, wanted: Record<string, string | null>) {
  return page.waitForResponse((response) => {
    const url = new URL(response.url());
    return (
      url.pathname === '/api/listings' &&
      url.searchParams.get('facets') === '1' &&
      Object.entries(wanted).every(([key, value]) => url.searchParams.get(key) === value)
    );
  });
}

test.describe('finding a good deal', () => {
  test('a buyer ticks Great deal, sees only great deals, and sorts best deals first', async ({
    page,
    playwright,
  }) => {
    test.setTimeout(120_000);
    await signUpBuyer(page, 'Dee Dealhunter');
    await waitForPriceGuide(page.request);

    // A great deal of the test's own: a seller prices a car 30 % under what the guide says cars
    // like one already rated are worth (the guide rates a new car from the last fit at once).
    const rated = (await (
      await page.request.get('/api/listings?deal=fair,good,high&limit=1')
    ).json()) as SearchResult;
    const like = rated.items[0];
    expect(like, 'the demo cars have a price guide').toBeDefined();
    const word = uniqueMarker();
    const name = `${like!.make} ${like!.model} bargain ${word}`;
    await asNewSeller(playwright, async (seller) => {
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
      await addCarApi(seller, name, {
        make: like!.make,
        model: like!.model,
        // The year too: the car's age is part of its price guide.
        year: like!.year,
        bodyType: like!.bodyType,
        mileageKm,
        reprice: Math.round(fair * 0.7),
        orprice: fair,
      });
    });

    await page.goto('/cars');
    await waitForHydration(page);
    const filters = page.getByRole('complementary', { name: 'Filters' });
    const deal = filters.getByRole('group', { name: 'Deal' });
    await expect(deal.getByRole('checkbox', { name: /^Great deal/ })).toBeVisible();
    // Ratings are listed best first, in the words the cards use: those of the cars on sale,
    // among which is the test's great deal.
    const labels = (await deal
      .getByRole('checkbox')
      .evaluateAll((boxes) =>
        boxes.map((box) => box.closest('label')!.querySelector('span')!.textContent),
      )) as string[];
    expect(labels[0]).toBe('Great deal');
    expect(labels).toEqual(
      ['Great deal', 'Good deal', 'Fair deal', 'High price', 'Overpriced'].filter((label) =>
        labels.includes(label),
      ),
    );

    // Great deal ticked: the cars the page was sent, all great deals, and only those.
    const greatOnly = nextSearch(page, { deal: 'great', sort: null });
    await deal.getByRole('checkbox', { name: /^Great deal/ }).click();
    await expect(page).toHaveURL(/deal=great/);
    const great = (await (await greatOnly).json()) as SearchResult;
    expect(great.items.length).toBeGreaterThan(0);
    expect(great.items.map((car) => car.dealRating)).toEqual(great.items.map(() => 'great'));
    await expect(
      page.getByRole('heading', { name: `${great.total} ${great.total === 1 ? 'car' : 'cars'}` }),
    ).toBeVisible();
    await expect(cards(page).getByRole('heading')).toHaveText(great.items.map((car) => car.name));
    const badges = cards(page).getByTestId('deal-badge');
    await expect(badges).toHaveText(great.items.map(() => 'Great deal'));
    const inUse = page.getByRole('list', { name: 'Filters in use' });
    await expect(inUse.getByRole('button', { name: /Great deal/ })).toBeVisible();

    // Every rating again, best deals first: ratings never get worse down the page.
    await inUse.getByRole('button', { name: /Great deal/ }).click();
    await expect(page).not.toHaveURL(/deal=great/);
    const bestFirst = nextSearch(page, { sort: 'deal', deal: null });
    await page.getByLabel('Sort').selectOption({ label: 'Best deals first' });
    await expect(page).toHaveURL(/sort=deal/);
    const sorted = (await (await bestFirst).json()) as SearchResult;
    await expect(cards(page).getByRole('heading')).toHaveText(sorted.items.map((car) => car.name));
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

    // The test's own car, searched for by its marker: found as a great deal.
    await page.goto(`/cars?q=${word}&deal=great`);
    await expect(cards(page).getByRole('heading')).toHaveText([name]);
    await expect(cards(page).getByTestId('deal-badge')).toHaveText('Great deal');
  });

  test('ratings ticked worst first are listed best first, in DEAL_RATINGS’ order', async ({
    page,
  }) => {
    await signUpBuyer(page, 'Dee Dealhunter');
    await page.goto('/cars?deal=good&deal=great');
    await expect(
      page.getByRole('list', { name: 'Filters in use' }).getByRole('button', { name: /deal/ }),
    ).toHaveText([/^Great deal/, /^Good deal/]);
  });
});

import { expect, test, type Browser, type Page } from '@playwright/test';

import {
  addCarApi,
  fromSite,
  otherSession,
  signUpBuyer,
  signUpBuyerApi,
  signUpSellerApi,
  SITE,
  waitForHydration,
} from './site';

const DEMO_PASSWORD = 'demo-drive-2026';
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/** A seller of their own with one car on sale, signed up through an API session apart. */
async function sellerWithCar(playwright: Parameters<typeof otherSession>[0], name: string) {
  const api = await otherSession(playwright);
  const seller = await signUpSellerApi(api, name);
  const carName = `Skoda Octavia ${Date.now().toString(36)}`;
  const carId = await addCarApi(api, carName);
  return { api, seller, carName, carId };
}

/** A browser window of someone else, signed in as `email` (its own cookies). */
async function windowOf(browser: Browser, email: string, password: string) {
  const context = await browser.newContext({ baseURL: SITE, reducedMotion: 'reduce' });
  const signIn = await context.request.post('/api/auth/sign-in/email', {
    headers: fromSite,
    data: { email, password },
  });
  expect(signIn.ok(), await signIn.text()).toBe(true);
  return { context, page: await context.newPage() };
}

/** On a phone, no part of the page makes it scroll sideways; the page stays phone-sized. */
async function expectNoSidewaysScrollOnAPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );
}

test.describe('talking to the seller', () => {
  test('a buyer asks about a car; the seller sees the unread badge, opens the thread and answers; the buyer sees the answer arrive without reloading', async ({
    page,
    browser,
    playwright,
  }) => {
    test.setTimeout(60_000);
    const { api, seller, carName, carId } = await sellerWithCar(playwright, 'Sam Seller');
    await api.dispose();
    await signUpBuyer(page, 'Casey Asker');

    await page.goto(`/listing/${carId}`);
    await page.getByRole('button', { name: 'Ask the seller' }).click();
    const dialog = page.getByRole('dialog', { name: `Ask Sam Seller about the ${carName}` });
    await expect(dialog.getByLabel('Your question')).toBeFocused();
    await dialog.getByLabel('Your question').fill('Has the cambelt been done?');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Sent to Sam Seller')).toBeVisible();
    // The car page now leads to the conversation instead of starting another; on the smallest
    // phones its words wrap rather than being cut off at both ends.
    const conversationLink = page.getByRole('link', { name: 'Your conversation with Sam Seller' });
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await conversationLink.evaluate((link) => link.scrollWidth <= link.clientWidth)).toBe(
      true,
    );
    await page.setViewportSize(size);
    await conversationLink.click();
    await expect(page).toHaveURL(/\/dashboard\/messages\/[0-9a-f-]{36}$/);
    const thread = page.getByTestId('thread');
    await expect(thread.getByText('Has the cambelt been done?')).toBeVisible();
    // A new account's banner (confirm your address) sits above the thread; the composer still
    // shows on the first screen, on a laptop and on a phone.
    await expect(page.getByText('Please confirm your email address')).toBeVisible();
    await expect(page.getByTestId('composer')).toBeInViewport({ ratio: 1 });
    const laptop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByTestId('composer')).toBeInViewport({ ratio: 1 });
    // Not by squeezing the thread: on the phone it takes the screen below the header.
    const threadBox = await page.locator('section[aria-labelledby^="thread-"]').boundingBox();
    expect(threadBox!.height).toBeGreaterThan(600);
    await page.setViewportSize(laptop);
    await expect(page.getByRole('link', { name: carName, exact: true })).toHaveAttribute(
      'href',
      `/listing/${carId}`,
    );

    // The seller, in a browser of their own, on the home page.
    const other = await windowOf(browser, seller.email, seller.password);
    const sellerPage = other.page;
    await sellerPage.goto('/');
    await waitForHydration(sellerPage);
    const badge = sellerPage.getByRole('banner').getByRole('link', { name: 'Messages, 1 unread' });
    await expect(badge).toBeVisible();
    await badge.click();
    await expect(sellerPage).toHaveURL(/\/dashboard\/messages$/);
    await expect(
      sellerPage.getByRole('navigation', { name: 'Dashboard' }).getByTestId('menu-unread-badge'),
    ).toHaveText('1 unread');
    await expectNoSidewaysScrollOnAPhone(sellerPage);
    await sellerPage.setViewportSize({ width: 1280, height: 900 });

    const item = sellerPage.getByTestId('conversation-item').filter({ hasText: carName });
    await expect(item).toContainText('Casey Asker');
    await expect(item).toContainText('Has the cambelt been done?');
    await item.click();
    await expect(
      sellerPage.getByTestId('thread').getByText('Has the cambelt been done?'),
    ).toBeVisible();
    // Opening it read it: the badges go.
    await expect(
      sellerPage.getByRole('banner').getByRole('link', { name: 'Messages', exact: true }),
    ).toBeVisible();
    await expect(sellerPage.getByTestId('menu-unread-badge')).toBeHidden();

    // On a phone the thread's car name keeps a readable width; the buttons wrap below it.
    await sellerPage.setViewportSize({ width: 390, height: 844 });
    const carTitle = sellerPage.getByRole('heading', { level: 2, name: carName });
    expect((await carTitle.boundingBox())!.width).toBeGreaterThan(200);
    await sellerPage.setViewportSize({ width: 1280, height: 900 });

    // The composer's states (a draft kept, Send's reasons, Enter): composer.test.tsx.
    await sellerPage.getByTestId('composer').fill('Yes, at 60,000 miles.');
    await sellerPage.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(sellerPage.getByTestId('composer')).toHaveValue('');

    // The buyer's page was not reloaded: the answer appears, and is read out.
    await expect(thread.getByText('Yes, at 60,000 miles.')).toBeVisible();
    await expect(page.getByTestId('live-region')).toHaveText(
      'New message from Sam Seller: Yes, at 60,000 miles.',
    );
    // The buyer read it there and then: the seller sees "Seen" under it, live too.
    await expect(sellerPage.getByTestId('seen')).toBeVisible();

    // Plain text stays text: markup is shown, not run.
    await page.getByTestId('composer').fill('<b>Great</b>, see you Saturday');
    await page.getByTestId('composer').press('Enter');
    await expect(
      sellerPage.getByTestId('thread').getByText('<b>Great</b>, see you Saturday'),
    ).toBeVisible();

    await expectNoSidewaysScrollOnAPhone(page);
    await expect(page.getByRole('link', { name: '← All conversations' })).toBeVisible();
    await expectNoSidewaysScrollOnAPhone(sellerPage);
    await other.context.close();
  });

  test('a blocked buyer is told plainly why they cannot send, the moment the seller blocks them', async ({
    page,
    browser,
    playwright,
  }) => {
    test.setTimeout(60_000);
    const { api, seller, carName, carId } = await sellerWithCar(playwright, 'Blair Blocker');
    await api.dispose();
    await signUpBuyer(page, 'Pat Pushy');
    const asked = await page.request.post(`/api/listings/${carId}/messages`, {
      headers: fromSite,
      data: { body: 'Lowest price? Answer now.' },
    });
    expect(asked.ok(), await asked.text()).toBe(true);
    const { conversationId } = (await asked.json()) as { conversationId: string };

    await page.goto(`/dashboard/messages/${conversationId}`);
    await expect(page.getByTestId('composer')).toBeVisible();

    const other = await windowOf(browser, seller.email, seller.password);
    await other.page.goto(`/dashboard/messages/${conversationId}`);
    await other.page.getByRole('button', { name: 'Block buyer' }).click();
    const confirm = other.page.getByRole('dialog', { name: 'Block Pat Pushy?' });
    await confirm.getByRole('button', { name: 'Block', exact: true }).click();
    await expect(other.page.getByTestId('closed-reason')).toHaveText(
      'You blocked this buyer. Unblock them to write again.',
    );
    await expect(other.page.getByRole('button', { name: 'Unblock' })).toBeVisible();

    // Without reloading, the buyer's composer gives way to the reason.
    await expect(page.getByTestId('closed-reason')).toHaveText(
      'The seller has blocked you, so you cannot send them messages.',
    );
    await expect(page.getByTestId('composer')).toBeHidden();
    await expect(page.getByTestId('thread').getByText('Lowest price? Answer now.')).toBeVisible();
    await expectNoSidewaysScrollOnAPhone(page);

    // The car page says so too.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/listing/${carId}`);
    await expect(
      page.getByRole('link', { name: 'Your conversation with Blair Blocker' }),
    ).toBeVisible();
    await expect(
      page.getByText('The seller has blocked you, so you cannot send them messages.'),
    ).toBeVisible();
    expect(carName).toContain('Skoda');
    await other.context.close();
  });

  test('an admin reads a reported conversation from Reports, and marks the report dealt with', async ({
    page,
    playwright,
  }) => {
    test.setTimeout(60_000);
    const { api: sellerApi, carName, carId } = await sellerWithCar(playwright, 'Rory Reported');
    const buyerApi = await otherSession(playwright);
    await signUpBuyerApi(buyerApi, 'Quinn Questioner');
    const asked = await buyerApi.post(`/api/listings/${carId}/messages`, {
      data: { body: 'Pay me by gift card and I will come today.' },
    });
    const { conversationId } = (await asked.json()) as { conversationId: string };
    const reported = await sellerApi.post(`/api/conversations/${conversationId}/report`, {
      data: { reason: 'Asks to pay with gift cards, outside CarMarket.' },
    });
    expect(reported.ok(), await reported.text()).toBe(true);
    await Promise.all([sellerApi.dispose(), buyerApi.dispose()]);

    const signIn = await page.request.post('/api/auth/sign-in/email', {
      headers: fromSite,
      data: { email: 'admin@demo.local', password: DEMO_PASSWORD },
    });
    expect(signIn.ok()).toBe(true);
    await page.goto('/dashboard/reports');
    const report = page.getByTestId('report').filter({ hasText: carName });
    await expect(report).toContainText('Asks to pay with gift cards, outside CarMarket.');
    await expect(report).toContainText('reported by Rory Reported (seller)');
    await expect(report.getByText('Open', { exact: true })).toBeVisible();
    await expectNoSidewaysScrollOnAPhone(page);
    await page.setViewportSize({ width: 1280, height: 900 });

    await report.getByRole('link', { name: 'Read the conversation' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Reported conversation' }),
    ).toBeVisible();
    await expect(
      page.getByTestId('thread').getByText('Pay me by gift card and I will come today.'),
    ).toBeVisible();
    await expect(page.getByText('Administrators do not write in conversations.')).toBeVisible();
    await expect(page.getByTestId('composer')).toBeHidden();

    await page.getByRole('link', { name: '← All reports' }).click();
    await report.getByRole('button', { name: 'Mark as dealt with' }).click();
    await expect(report.getByText('Dealt with', { exact: true })).toBeVisible();
  });
});

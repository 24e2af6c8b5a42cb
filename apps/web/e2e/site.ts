import fs from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

import type { CategoryDetail, CategorySummary, ListingCard, SearchResult } from '@carmarket/shared';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Where the browser tests' server listens (playwright.config.ts). */
export const SITE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3199}`;

/**
 * Headers for API calls made beside the page (`page.request`), as the page's own calls carry
 * them: a state-changing request with the session cookie must say it comes from the site.
 */
export const fromSite = { origin: SITE };

/**
 * A second person, apart from the page's: an API session of their own that sends the site's
 * Origin, as their pages would.
 */
export async function otherSession(playwright: {
  request: { newContext: (options: object) => Promise<APIRequestContext> };
}) {
  return playwright.request.newContext({ baseURL: SITE, extraHTTPHeaders: fromSite });
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A small valid PNG of one colour, made from bytes (no image library needed). */
export function solidPng(
  width: number,
  height: number,
  [r, g, b]: [number, number, number],
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array(width).fill([r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A new Buyer account, signed in through `request`: an API session of its own, or the page's
 * (`page.request`).
 */
export async function signUpBuyerApi(request: APIRequestContext, name = 'Dana Buyer') {
  const email = `buyer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'long-enough-password-2026';
  const signUp = await request.post('/api/auth/sign-up/email', { data: { name, email, password } });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const role = await request.post('/api/user', {
    headers: fromSite,
    data: { name, email, role: 'Buyer' },
  });
  expect(role.ok(), await role.text()).toBe(true);
  return { name, email, password };
}

/** A new Seller account, signed in through `request` (an API session, or the page's). */
export async function signUpSellerApi(request: APIRequestContext, name = 'Sam Seller') {
  const email = `seller-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'long-enough-password-2026';
  const signUp = await request.post('/api/auth/sign-up/email', { data: { name, email, password } });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const role = await request.post('/api/user', {
    headers: fromSite,
    data: { name, email, role: 'Seller' },
  });
  expect(role.ok(), await role.text()).toBe(true);
  return { name, email, password };
}

/** What a test car may say besides its name; the rest is filled in. */
export interface CarDetails {
  category?: string;
  make?: string;
  model?: string;
  reprice?: number;
  orprice?: number;
  mileageKm?: number;
  /** 2021 unless given: the car's age is part of its price guide. */
  year?: number;
  bodyType?: string | null;
  vin?: string;
  /** Its photos' URLs (uploaded already); one blue photo is uploaded when none are given. */
  images?: string[];
}

/** A car on sale, added through the API by the seller signed in through `request`; its id. */
export async function addCarApi(
  request: APIRequestContext,
  name: string,
  { category = 'Electric car', images, ...details }: CarDetails = {},
): Promise<string> {
  if (!images) {
    const upload = await request.post('/api/uploads', {
      headers: fromSite,
      multipart: {
        image: { name: 'car.png', mimeType: 'image/png', buffer: solidPng(32, 24, [40, 90, 160]) },
      },
    });
    expect(upload.ok(), await upload.text()).toBe(true);
    const { data } = (await upload.json()) as { data: { url: string } };
    images = [data.url];
  }
  const created = await request.post(`/api/product?name=${encodeURIComponent(category)}`, {
    headers: fromSite,
    data: {
      name,
      reprice: 1_800_000,
      orprice: 2_400_000,
      location: 'Fresno, CA',
      year: 2021,
      condition: 'Good',
      describe: 'A car for the browser tests.',
      images,
      ...details,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { insertedId: string }).insertedId;
}

/**
 * What `act` returns, done by a new seller through an API session of their own (listing cars,
 * changing their prices), closed afterwards.
 */
export async function asNewSeller<T>(
  playwright: Parameters<typeof otherSession>[0],
  act: (seller: APIRequestContext) => Promise<T>,
): Promise<T> {
  const seller = await otherSession(playwright);
  try {
    await signUpSellerApi(seller);
    return await act(seller);
  } finally {
    await seller.dispose();
  }
}

/**
 * Waits until the price guide rates cars (`request` is signed in): the server fits it from the
 * demo cars as it starts, and a car listed before that fit has committed is rated only at the
 * next hourly refresh.
 */
export async function waitForPriceGuide(request: APIRequestContext) {
  await expect
    .poll(
      async () => {
        const response = await request.get(
          '/api/listings?deal=great,good,fair,high,overpriced&limit=1',
        );
        return response.ok() ? ((await response.json()) as SearchResult).total : 0;
      },
      { message: 'a car rated by the price guide', timeout: 60_000 },
    )
    .toBeGreaterThan(0);
}

/** A VIN the server decodes (vin.spec.ts): a 2003 Honda Accord EX-V6 coupe. */
export const ACCORD = '1HGCM82633A004352';

/** Something for car names and searches (`q=`) that no other test or run has. */
export const uniqueMarker = () =>
  `zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * A car of the calling test's own, put on sale in `category` (a name) by a new seller; the
 * category as the signed-in `page` sees it, and the car's card there. No other test books it,
 * and as the newest car it is among the first cards of the category's page even while other
 * test files add cars there at the same time (a seeded car near the page's end can be pushed
 * onto the next page by them).
 */
export async function newCarOnSale(
  page: Page,
  playwright: Parameters<typeof otherSession>[0],
  category: string,
  name = `Kia Carnival ${Math.random().toString(36).slice(2, 8)}`,
): Promise<{ category: CategoryDetail; car: ListingCard }> {
  const seller = await otherSession(playwright);
  await signUpSellerApi(seller);
  const carId = await addCarApi(seller, name, { category });
  await seller.dispose();
  const categories = (await (await page.request.get('/api/category')).json()) as CategorySummary[];
  const summary = categories.find((each) => each.name === category);
  if (!summary) throw new Error(`No category named ${category}`);
  const detail = await page.request.get(`/api/category/${summary._id}`);
  expect(detail.ok(), await detail.text()).toBe(true);
  const found = (await detail.json()) as CategoryDetail;
  const car = found.listings.find((listing) => listing._id === carId);
  if (!car) throw new Error(`The new car ${carId} is not among ${category}'s newest`);
  return { category: found, car };
}

/** The demo accounts' password (README.md). */
export const DEMO_PASSWORD = 'demo-drive-2026';

/** Signs `request` in (an API session, or the page's) as an account, a demo one by default. */
export async function signInApi(
  request: APIRequestContext,
  email: string,
  password = DEMO_PASSWORD,
) {
  const response = await request.post('/api/auth/sign-in/email', {
    headers: fromSite,
    data: { email, password },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Books a car as the buyer signed in through `request`; the booking's id. */
export async function bookCarApi(request: APIRequestContext, listingId: string): Promise<string> {
  const response = await request.post('/api/category', {
    headers: fromSite,
    data: { listingId, userPhone: '+1 503 555 0100', userLocation: 'Portland, OR' },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { insertedId: string }).insertedId;
}

/** Pays for a booking as the payment page does (start, card, record); the transaction id. */
export async function payApi(request: APIRequestContext, bookingId: string): Promise<string> {
  const started = await request.post('/api/create-payment-intent', {
    headers: fromSite,
    data: { bookingId },
  });
  expect(started.ok(), await started.text()).toBe(true);
  const { clientSecret } = (await started.json()) as { clientSecret: string };
  const card = await request.post('/api/payments/sandbox/confirm', {
    headers: fromSite,
    data: {
      clientSecret,
      card: {
        number: '4242424242424242',
        expMonth: 12,
        expYear: new Date().getFullYear() + 2,
        cvc: '123',
      },
    },
  });
  expect(card.ok(), await card.text()).toBe(true);
  const transactionId = clientSecret.split('_secret_')[0]!;
  const recorded = await request.post('/api/payments', {
    headers: fromSite,
    data: { bookingId, transactionId },
  });
  expect(recorded.ok(), await recorded.text()).toBe(true);
  return transactionId;
}

/**
 * A new Buyer account, signed in in this page's browser context (`page.request` shares its
 * cookies), so each test has bookings of its own.
 */
export async function signUpBuyer(page: Page, name = 'Casey Carbuyer') {
  const email = `buyer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    data: { name, email, password: 'long-enough-password-2026' },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const role = await page.request.post('/api/user', {
    headers: fromSite,
    data: { name, email, role: 'Buyer' },
  });
  expect(role.ok(), await role.text()).toBe(true);
  return { name, email };
}

/**
 * axe-core finds nothing to report on the page as it is now, on a wide screen (1280 px) and on a
 * phone (390 px); the page is wide again afterwards. Soft, so that a test that checks many pages
 * names every one that fails, not only the first. Legacy mode runs axe in the page itself rather
 * than gathering its results in a new blank page, in half the time; it leaves out only frames
 * from other sites, and the site has none.
 */
export async function expectNoAxeViolationsWideAndNarrow(page: Page) {
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
    const summary = results.violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
    expect.soft(summary, `axe at ${width} px on ${page.url()}`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Where the e2e server writes mail (scripts/e2e-server.mjs: DATA_DIR is .data-test-e2e). */
const OUTBOX = fileURLToPath(new URL('../../../.data-test-e2e/outbox/', import.meta.url));

/** A mail as the server writes it to its outbox (no SMTP_URL). */
export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  headers?: Record<string, string>;
}

async function readOutbox(): Promise<OutboxMail[]> {
  const files = (await fs.readdir(OUTBOX).catch(() => [])).filter((file) => file.endsWith('.json'));
  return Promise.all(
    files.map(
      async (file) => JSON.parse(await fs.readFile(path.join(OUTBOX, file), 'utf8')) as OutboxMail,
    ),
  );
}

/** Waits for the server to send `to` a mail whose subject contains `subject`, and gives it. */
export async function waitForMail(to: string, subject: string): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await readOutbox()).find(
          (mail) => mail.to === to && mail.subject.includes(subject),
        );
        return found !== undefined;
      },
      { message: `a mail to ${to} about "${subject}"`, timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/**
 * Confirms `email` as its owner does, by opening the link mailed at sign-up in the session of
 * `request` (a page's, or another's): alerts and "new message" mail go only to confirmed addresses.
 */
export async function confirmEmailApi(request: APIRequestContext, email: string) {
  const mail = await waitForMail(email, 'Confirm your CarMarket email');
  const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
  const opened = await request.get(`${link.pathname}${link.search}`, { maxRedirects: 0 });
  expect(opened.status(), await opened.text()).toBe(302);
}

/** Waits until the app has taken over a prerendered page, so its buttons work. */
export async function waitForHydration(page: Page) {
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
}

/**
 * The home page's Advertised section asks for its cars as it comes near the screen: scroll to the
 * foot of the page (it sits just above the footer).
 */
export async function scrollToAdvertised(page: Page) {
  await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
}

/** The site's main menu, in the header. */
export const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** The dashboard's menu of pages. */
export const dashboardNav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });

/** An address no other test uses, so tests never share an account. */
export function uniqueEmail(kind: string) {
  return `${kind.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The password of the accounts that `registerThroughPage` makes. */
export const NEW_PASSWORD = 'a long enough password 2026';

/**
 * Fills in and sends the register form for a new `role` account (its password NEW_PASSWORD); the
 * page then says so and goes home. The account's email.
 */
export async function registerThroughPage(
  page: Page,
  role: 'Seller' | 'Buyer',
  email = uniqueEmail(role),
) {
  await page.goto('/register');
  await page.getByLabel('Name').fill(`Test ${role}`);
  await page.getByLabel('Account type').selectOption(role);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Registration successful')).toBeVisible();
  await expect(page).toHaveURL('/');
  return email;
}

/** Signs in with the form of the login page the browser is on (a demo account by default). */
export async function signInThroughPage(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

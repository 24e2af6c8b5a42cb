// Setup shared by the saved-car and saved-search tests (saved, saved-alerts, alert-mail-limits).
import { confirmAddress, isSignUpMail } from '../../test/mail.ts';
import { readOutbox, type OutboxEntry } from '../../adapters/mail.ts';
import type { TestClient } from '../../test/client.ts';
import { register, signInAs } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { uploadPhoto } from '../../test/uploads.ts';
import { searchPlaces } from '../places/gazetteer.ts';

// The worker runs only when a test asks (app.runAlerts), so each test knows what was sent.
export const env = { ALERT_INTERVAL_MS: '3600000', ALERT_DIGEST_HOURS: '24' };

/** A test app with these tests' env (and `more`), and the demo seller signed in to it. */
export async function startWithSeller(more: Record<string, string> = {}) {
  const app = await startTestApp({ env: { ...env, ...more } });
  return { app, seller: await signInAs(app, 'seller@demo.local') };
}

export const put = (client: TestClient, path: string) => client.request(path, { method: 'PUT' });
export const del = (client: TestClient, path: string) => client.request(path, { method: 'DELETE' });
export const patch = (client: TestClient, path: string, json: unknown) =>
  client.request(path, { method: 'PATCH', json });

export const place = (label: string) => searchPlaces(label, 1)[0]!;

export interface NewCar {
  name: string;
  make: string;
  model: string;
  reprice: number;
  year: number;
  mileageKm?: number;
  bodyType?: string;
  fuel?: string;
  transmission?: string;
  condition?: string;
  placeId?: number;
  location?: string;
  describe?: string;
  category?: string;
}

export const photos = new WeakMap<TestClient, Promise<string>>();

/** Lists a car through the seller's form call (which queues it for matching). */
export async function listCar(seller: TestClient, car: NewCar): Promise<string> {
  const { category: categoryName = 'Luxury car', ...fields } = car;
  if (!photos.has(seller)) photos.set(seller, uploadPhoto(seller));
  const photo = await photos.get(seller)!;
  const response = await seller.post(`/api/product?name=${encodeURIComponent(categoryName)}`, {
    orprice: car.reprice + 5_000_00,
    location: 'Somewhere',
    condition: 'Good',
    describe: 'A car listed by a test.',
    mileageKm: 40_000,
    images: [photo],
    ...fields,
  });
  if (response.status !== 200) throw new Error(`listing failed: ${await response.text()}`);
  return ((await response.json()) as { insertedId: string }).insertedId;
}

export async function saveSearch(
  buyer: TestClient,
  name: string,
  query: string,
  alerts = 'instant',
) {
  const response = await buyer.post('/api/saved-searches', { name, query, alerts });
  if (response.status !== 200) throw new Error(`save failed: ${await response.text()}`);
  return ((await response.json()) as { insertedId: string }).insertedId;
}

/** A new buyer with a confirmed address: alert mail goes only to those. */
export async function buyerWithMail(app: TestApp, overrides: Parameters<typeof register>[1] = {}) {
  const buyer = await register(app, overrides);
  await confirmAddress(app, buyer);
  return buyer;
}

/** Every mail to `email` but the sign-up's confirmation, oldest first. */
export const mailTo = async (app: TestApp, email: string): Promise<OutboxEntry[]> =>
  (await readOutbox(app.outboxDir)).filter((mail) => mail.to === email && !isSignUpMail(mail));

export const unsubscribeLink = (mail: OutboxEntry) => {
  const match = /\/unsubscribe\?token=(\S+)/.exec(mail.text);
  if (!match) throw new Error(`no unsubscribe link in: ${mail.text}`);
  return match[1]!;
};

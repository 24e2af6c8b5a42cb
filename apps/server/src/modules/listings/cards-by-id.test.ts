import { CardsByIdSchema, CarStatsSchema } from '@carmarket/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listing } from '../../db/schema.ts';
import { codeOf, register, signInAs, TestClient } from '../../test/client.ts';
import { newCar } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * `GET /api/listings/cards?ids=`: the web app's recently viewed cars as they are now (issue 32).
 * A sold car comes back marked sold, a removed or unknown one not at all, and asking is not a view.
 */
describe('cars by id', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env: { VIEW_FLUSH_SECONDS: '3600' } });
    seller = await signInAs(app, 'seller@demo.local');
  });
  afterAll(() => app.close());

  const setStatus = (id: string, status: 'sold' | 'withdrawn' | 'removed') =>
    app.database.db.update(listing).set({ status }).where(eq(listing.id, id));

  const cardsOf = async (client: TestClient, ids: string[]) => {
    const response = await client.get(`/api/listings/cards?ids=${ids.join(',')}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return CardsByIdSchema.parse(await response.json()).items;
  };

  it('answers in the order asked, once each, a sold car as sold, without removed or unknown cars', async () => {
    const [onSale, sold, withdrawn, removed] = await Promise.all(
      [0, 1, 2, 3].map(() => newCar(app, { seller })),
    );
    await setStatus(sold!.id, 'sold');
    await setStatus(withdrawn!.id, 'withdrawn');
    await setStatus(removed!.id, 'removed');
    const unknown = '00000000-0000-4000-8000-000000000000';
    const buyer = await register(app);

    const items = await cardsOf(buyer, [
      sold!.id,
      unknown,
      removed!.id,
      onSale!.id,
      withdrawn!.id,
      sold!.id,
    ]);
    expect(items.map((item) => [item._id, item.status])).toEqual([
      [sold!.id, 'sold'],
      [onSale!.id, 'available'],
      [withdrawn!.id, 'withdrawn'],
    ]);
    expect(items[1]!.name).toBe(onSale!.name);
  });

  it('is not a view of the car: the seller’s figures do not count it', async () => {
    const car = await newCar(app, { seller });
    const buyer = await register(app);
    await cardsOf(buyer, [car.id]);
    await app.flushCarViews();
    const stats = await seller.get(`/api/my/listings/${car.id}/stats`);
    expect(CarStatsSchema.parse(await stats.json()).views).toBe(0);
  });

  it('refuses no ids, more than 12, and a malformed id', async () => {
    const buyer = await register(app);
    const ids = Array.from(
      { length: 13 },
      (_, n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    );
    for (const query of ['', `?ids=${ids.join(',')}`, '?ids=not-an-id']) {
      const response = await buyer.get(`/api/listings/cards${query}`);
      expect(response.status).toBe(400);
      expect(await codeOf(response)).toBe('validation-failed');
    }
    expect((await buyer.get(`/api/listings/cards?ids=${ids.slice(1).join(',')}`)).status).toBe(200);
  });

  it('asks a visitor to sign in where browsing signed out is closed', async () => {
    const car = await newCar(app, { seller });
    const response = await new TestClient(app).get(`/api/listings/cards?ids=${car.id}`);
    expect(response.status).toBe(401);
  });
});

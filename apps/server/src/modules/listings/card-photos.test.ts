import { CardsByIdSchema, ListingDetailSchema, SearchResultSchema } from '@carmarket/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listing, user } from '../../db/schema.ts';
import { register, type TestClient } from '../../test/client.ts';
import { newCar } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * A card carries its cover and how many photos the car has; the car's own answer every photo
 * (cards read only the cover, and a search's 24 cards of 20 photos each weighed it down).
 */
describe("a car's photos on its card and its page", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const ok = async (client: TestClient, path: string) => {
    const response = await client.get(path);
    expect(response.status, await response.clone().text()).toBe(200);
    return response.json();
  };

  it('shows a car of 20 photos with its cover and photoCount 20 on its cards, and all 20 on its page', async () => {
    const seller = await register(app, { role: 'Seller', name: 'Twenty Photos Motors' });
    const [account] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, seller.account.email));
    const car = await newCar(app, { seller });
    const buyer = await register(app);
    const [cover] = ListingDetailSchema.parse(await ok(buyer, `/api/listings/${car.id}`)).images;
    const photos = Array.from({ length: 20 }, (_, i) => ({ ...cover!, url: `${cover!.url}?${i}` }));
    await app.database.db.update(listing).set({ images: photos }).where(eq(listing.id, car.id));

    const detail = ListingDetailSchema.parse(await ok(buyer, `/api/listings/${car.id}`));
    expect(detail.images).toEqual(photos);
    expect(detail.photoCount).toBe(20);

    const found = SearchResultSchema.parse(await ok(buyer, `/api/listings?seller=${account!.id}`));
    const [byId] = CardsByIdSchema.parse(
      await ok(buyer, `/api/listings/cards?ids=${car.id}`),
    ).items;
    for (const card of [found.items.find((item) => item._id === car.id), byId]) {
      expect(card).toMatchObject({ img: photos[0]!.url, images: [photos[0]], photoCount: 20 });
    }
  });

  it('shows a car without photos with none and photoCount 0', async () => {
    const car = await newCar(app);
    await app.database.db.update(listing).set({ images: [] }).where(eq(listing.id, car.id));
    const buyer = await register(app);
    const [card] = CardsByIdSchema.parse(
      await ok(buyer, `/api/listings/cards?ids=${car.id}`),
    ).items;
    expect(card).toMatchObject({ img: null, images: [], photoCount: 0 });
  });
});

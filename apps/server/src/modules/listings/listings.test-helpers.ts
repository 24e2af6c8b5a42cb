// Setup shared by the seller tests (seller, seller-edits).
import type { TestClient } from '../../test/client.ts';
import { uploadPhoto } from '../../test/uploads.ts';

/** Adds a car through the seller's form call, with two photos of its own; answers the response. */
export async function newCar(
  client: TestClient,
  overrides: Record<string, unknown> = {},
  category = 'Electric car',
) {
  const images = [await uploadPhoto(client), await uploadPhoto(client)];
  return client.post(`/api/product?name=${encodeURIComponent(category)}`, {
    name: 'Polestar 2 Long Range',
    reprice: 31_500_00,
    orprice: 49_900_00,
    location: 'Portland, OR',
    year: 2022,
    mileageKm: 28_000,
    condition: 'Excellent',
    describe: 'One owner, heat pump, all service at the dealer.',
    images,
    ...overrides,
  });
}

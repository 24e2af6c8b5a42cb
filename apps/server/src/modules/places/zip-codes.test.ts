import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlaceSchema, SearchResultSchema } from '@carmarket/shared';
import { errorOf, signInAs, type TestClient } from '../../test/client.ts';
import type { TestApp } from '../../test/test-app.ts';
import {
  buyerWithMail,
  listCar,
  mailTo,
  place,
  saveSearch,
  startWithSeller,
} from '../saved/saved.test-helpers.ts';

const placesFor = async (app: TestApp, q: string) => {
  const response = await app.request(`/api/places?q=${encodeURIComponent(q)}`);
  expect(response.status).toBe(200);
  return PlaceSchema.array().parse(await response.json());
};

describe('US ZIP codes as places (decision 034)', () => {
  let app: TestApp;
  let seller: TestClient;
  let buyer: TestClient;
  const cars: Record<string, string> = {};

  beforeAll(async () => {
    ({ app, seller } = await startWithSeller());
    buyer = await signInAs(app, 'buyer@demo.local');
    for (const [label, reprice] of [
      ['Newark, NJ', 18_000_00],
      ['Philadelphia, PA', 19_000_00],
      ['Boston, MA', 20_000_00],
      ['Los Angeles, CA', 21_000_00],
    ] as const) {
      const at = place(label);
      cars[label] = await listCar(seller, {
        name: `Zip test car in ${label}`,
        make: 'Honda',
        model: 'Civic',
        reprice,
        year: 2018,
        placeId: at.id,
        location: at.label,
      });
    }
  });
  afterAll(() => app.close());

  it('answers a ZIP with its place, coordinates and label, and a prefix with several ZIPs', async () => {
    const [zip, ...others] = await placesFor(app, '10001');
    expect(others).toEqual([]);
    expect(zip).toMatchObject({ id: 1_000_010_001, name: '10001', label: '10001 – New York, NY' });
    expect(zip!.lat).toBeCloseTo(40.75, 1);
    expect(zip!.lng).toBeCloseTo(-74.0, 1);
    const prefix = await placesFor(app, '1000');
    expect(prefix.length).toBeGreaterThan(1);
    expect(prefix.every((p) => /^1000\d – New York, NY$/.test(p.label))).toBe(true);
    // A ZIP with leading zeros keeps them.
    expect((await placesFor(app, '00501'))[0]!.label).toBe('00501 – Holtsville, NY');
    // Names are found as before.
    expect((await placesFor(app, 'new york'))[0]!.label).toBe('New York City, NY');
  });

  it('reads a ZIP+4, or a ZIP with spaces around it, as its five-digit ZIP', async () => {
    for (const q of ['10001-1234', '10001-', '10001 ', ' 10001-1234 ']) {
      const found = await placesFor(app, q);
      expect(
        found.map((p) => p.label),
        q,
      ).toEqual(['10001 – New York, NY']);
    }
    // "1000" is 10001-10009 (no 10000), the first 8 by default.
    expect((await placesFor(app, '1000')).map((p) => p.name)).toEqual([
      '10001',
      '10002',
      '10003',
      '10004',
      '10005',
      '10006',
      '10007',
      '10008',
    ]);
  });

  it('finds nothing for a ZIP that does not exist', async () => {
    expect(await placesFor(app, '00000')).toEqual([]);
    expect(await placesFor(app, '99999')).toEqual([]);
  });

  it('searches near a ZIP, nearest first, within the radius', async () => {
    const [zip] = await placesFor(app, '10001');
    const response = await buyer.request(
      `/api/listings?near=${zip!.id}&radiusKm=200&sort=distance&q=zip%20test%20car`,
    );
    expect(response.status).toBe(200);
    const { items } = SearchResultSchema.parse(await response.json());
    // Newark ~15 km, Philadelphia ~130 km; Boston ~300 km and Los Angeles are outside.
    expect(items.map((car) => car._id)).toEqual([cars['Newark, NJ'], cars['Philadelphia, PA']]);
    expect(items[0]!.distanceKm).toBeGreaterThan(5);
    expect(items[0]!.distanceKm).toBeLessThan(25);
    const wide = SearchResultSchema.parse(
      await (
        await buyer.request(`/api/listings?near=${zip!.id}&radiusKm=400&sort=distance&q=zip`)
      ).json(),
    );
    expect(wide.items.map((car) => car._id)).toEqual([
      cars['Newark, NJ'],
      cars['Philadelphia, PA'],
      cars['Boston, MA'],
    ]);
  });

  it('refuses an unknown ZIP and a malformed place as near, naming the field', async () => {
    for (const near of ['1000000000', '1000099999', 'abc', '-5', '1.5', '0']) {
      const response = await buyer.request(`/api/listings?near=${near}`);
      expect(response.status, near).toBe(400);
      expect((await errorOf(response)).field, near).toBe('near');
    }
  });

  it('alerts a saved search near a ZIP to a new car nearby, not to one far away', async () => {
    const watcher = await buyerWithMail(app);
    await saveSearch(watcher, 'Near my ZIP', `near=${1_000_010_001}&radiusKm=50&make=Honda`);
    const jersey = place('Jersey City, NJ');
    const near = await listCar(seller, {
      name: 'Honda Civic by the river',
      make: 'Honda',
      model: 'Civic',
      reprice: 17_000_00,
      year: 2019,
      placeId: jersey.id,
      location: jersey.label,
    });
    const boston = place('Boston, MA');
    const far = await listCar(seller, {
      name: 'Honda Civic up north',
      make: 'Honda',
      model: 'Civic',
      reprice: 17_500_00,
      year: 2019,
      placeId: boston.id,
      location: boston.label,
    });
    await app.runAlerts();
    await app.runAlerts();
    const mail = await mailTo(app, watcher.account.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain(`/listing/${near}`);
    expect(mail[0]!.text).not.toContain(`/listing/${far}`);
  });

  it('takes a ZIP as a car’s place, with the ZIP’s coordinates', async () => {
    const [zip] = await placesFor(app, '10001');
    const id = await listCar(seller, {
      name: 'Honda Civic in a ZIP',
      make: 'Honda',
      model: 'Civic',
      reprice: 16_000_00,
      year: 2017,
      placeId: zip!.id,
      location: zip!.label,
    });
    const { items } = SearchResultSchema.parse(
      await (await buyer.request(`/api/listings?near=${zip!.id}&radiusKm=10&q=civic%20zip`)).json(),
    );
    expect(items.map((car) => car._id)).toEqual([id]);
    expect(items[0]!.distanceKm).toBeLessThan(0.1);
  });
});

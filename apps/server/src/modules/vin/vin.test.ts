import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListingDetailSchema, VinDecodeSchema, vinCheckDigit } from '@carmarket/shared';
import { errorOf, register, signInAs, TestClient, type Server } from '../../test/client.ts';
import { newCar } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/*
 * VIN decoding offline (issue 31 part 5, decision 033): `GET /api/vin/:vin` from the NHTSA's vPIC
 * data in a process of its own, and the cars' decodes kept by the VIN decoding job. The VIN decoding
 * job's timer is an hour here: cars are decoded when a test runs it.
 */

/** A real VIN: a 2003 Honda Accord EX-V6 coupe. */
const ACCORD = '1HGCM82633A004352';
/** The example: an Accord's VIN whose check digit (the 9th character) should be 7. */
const WRONG_CHECK_DIGIT = '1HGCM82633A123456';
const TESLA = '5YJ3E1EA2KF317000';
const CIVIC = '19XFC2F57GE000000';
const MUSTANG = '1FA6P8TH5J5100000';

/** A well-formed VIN with a right check digit whose maker (its first 3 characters) vPIC lacks. */
function unknownMaker(serial: number): string {
  const vin = `111111111111${String(serial).padStart(5, '0')}`;
  return `${vin.slice(0, 8)}${vinCheckDigit(vin)}${vin.slice(9)}`;
}

const PER_MINUTE = 4;

async function carPage(client: TestClient, id: string) {
  const response = await client.get(`/api/listings/${id}`);
  expect(response.status).toBe(200);
  return ListingDetailSchema.parse(await response.json());
}

describe('VIN decoding', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp({
      env: { VIN_DECODES_PER_MINUTE: String(PER_MINUTE), VIN_DECODE_INTERVAL_SECONDS: '3600' },
    });
    seller = await signInAs(app, 'seller@demo.local');
  });
  afterAll(() => app.close());

  it('decodes a real VIN as a 2003 Honda Accord, on our catalogue', async () => {
    const response = await seller.get(`/api/vin/${ACCORD.toLowerCase()}`);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(VinDecodeSchema.parse(await response.json())).toEqual({
      vin: ACCORD,
      make: 'Honda',
      model: 'Accord',
      year: 2003,
      bodyType: 'Coupe',
      fuel: 'petrol',
      trim: 'EX-V6',
      manufacturer: 'AMERICAN HONDA MOTOR CO., INC.',
      catalogue: { make: 'Honda', model: 'Accord' },
    });
  });

  it('refuses the issue’s example for its check digit, and malformed VINs, naming the field', async () => {
    const wrong = await seller.get(`/api/vin/${WRONG_CHECK_DIGIT}`);
    expect(wrong.status).toBe(400);
    const error = await errorOf(wrong);
    expect(error.field).toBe('vin');
    expect(error.message).toMatch(/check digit/);
    for (const malformed of ['1HGCM82633A00435', '1HGCM82633A0043521', 'IHGCM82633A004352']) {
      const response = await seller.get(`/api/vin/${malformed}`);
      expect(response.status, malformed).toBe(400);
      expect((await errorOf(response)).field).toBe('vin');
    }
  });

  it('answers 404 for a well-formed VIN it cannot decode', async () => {
    const response = await seller.get(`/api/vin/${unknownMaker(1)}`);
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('not-found');
  });

  it('asks a visitor to sign in first', async () => {
    const response = await new TestClient(app as Server).get(`/api/vin/${ACCORD}`);
    expect(response.status).toBe(401);
  });

  it('limits decodes a person may have a minute; VINs decoded lately do not count', async () => {
    const buyer = await register(app);
    for (let serial = 10; serial < 10 + PER_MINUTE; serial++) {
      expect((await buyer.get(`/api/vin/${unknownMaker(serial)}`)).status).toBe(404);
    }
    // Decoded a moment ago (by anyone): answered from memory.
    expect((await buyer.get(`/api/vin/${ACCORD}`)).status).toBe(200);
    const over = await buyer.get(`/api/vin/${unknownMaker(99)}`);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await errorOf(over)).code).toBe('too-many-requests');
    // Another person's minute is their own.
    expect((await seller.get(`/api/vin/${unknownMaker(98)}`)).status).toBe(404);
  });

  it('keeps what a listed car’s VIN decodes as, and decodes it again when the VIN changes', async () => {
    const car = await newCar(app, { seller, vin: TESLA });
    expect((await carPage(seller, car.id)).vinDecoded).toBeNull();

    expect(await app.runVinDecoding()).toEqual({ decoded: 1, undecodable: 0 });
    expect((await carPage(seller, car.id)).vinDecoded).toEqual({
      make: 'Tesla',
      model: 'Model 3',
      year: 2019,
      catalogue: { make: 'Tesla', model: 'Model 3' },
    });

    const edited = await seller.request(`/api/listings/${car.id}`, {
      method: 'PATCH',
      json: { vin: CIVIC },
    });
    expect(edited.status, await edited.clone().text()).toBe(200);
    expect((await carPage(seller, car.id)).vinDecoded).toBeNull();
    expect(await app.runVinDecoding()).toEqual({ decoded: 1, undecodable: 0 });
    expect((await carPage(seller, car.id)).vinDecoded).toEqual({
      make: 'Honda',
      model: 'Civic',
      year: 2016,
      trim: 'LX',
      catalogue: { make: 'Honda', model: 'Civic' },
    });
  });

  it('marks a VIN it cannot decode, so it is not tried again', async () => {
    const car = await newCar(app, { seller, vin: unknownMaker(500) });
    expect(await app.runVinDecoding()).toEqual({ decoded: 0, undecodable: 1 });
    expect(await app.runVinDecoding()).toEqual({ decoded: 0, undecodable: 0 });
    expect((await carPage(seller, car.id)).vinDecoded).toBeNull();
  });

  it('a car listed with a VIN decoded a moment ago (Fill from VIN) has it at once', async () => {
    expect((await seller.get(`/api/vin/${MUSTANG}`)).status).toBe(200);
    const car = await newCar(app, { seller, vin: MUSTANG });
    expect((await carPage(seller, car.id)).vinDecoded).toMatchObject({
      make: 'Ford',
      model: 'Mustang',
      year: 2018,
      catalogue: { make: 'Ford', model: 'Mustang' },
    });
    expect(await app.runVinDecoding()).toEqual({ decoded: 0, undecodable: 0 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VinDecodeSchema, vinCheckDigit } from '@carmarket/shared';
import { errorOf, register, signInAs, TestClient, type Server } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/*
 * VIN decoding offline (issue 31 part 5, decision 033): `GET /api/vin/:vin` from the NHTSA's vPIC
 * data in a process of its own. Nothing here differs between the databases, so it runs once; the
 * cars' decodes kept by the VIN decoding job are in vin-backfill.test.ts, on both. The job's
 * timer is an hour here: it never runs in the middle of a test.
 */

/** A real VIN: a 2003 Honda Accord EX-V6 coupe. */
const ACCORD = '1HGCM82633A004352';
/** The example: an Accord's VIN whose check digit (the 9th character) should be 7. */
const WRONG_CHECK_DIGIT = '1HGCM82633A123456';

/** A well-formed VIN with a right check digit whose maker (its first 3 characters) vPIC lacks. */
function unknownMaker(serial: number): string {
  const vin = `111111111111${String(serial).padStart(5, '0')}`;
  return `${vin.slice(0, 8)}${vinCheckDigit(vin)}${vin.slice(9)}`;
}

const PER_MINUTE = 4;

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
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListingDetailSchema, vinCheckDigit, type VinDecode } from '@carmarket/shared';
import { queryRows } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { signInAs, type TestClient } from '../../test/client.ts';
import { newCar } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { decodeWaitingCars } from './vin-backfill.ts';
import { VinDecodeFailed, type VinDecoder } from './vin-decoder.ts';

/*
 * Cars' VIN decodes kept in `listing.vin_decoded` (decision 033): the VIN decoding job's claims
 * (a jsonb marker, FOR UPDATE SKIP LOCKED, timestamptz read back from jsonb) and the car events'
 * writes, on both databases. The endpoint's own tests are in vin.test.ts. The job's timer is an
 * hour here: cars are decoded when a test runs it.
 */

const TESLA = '5YJ3E1EA2KF317000';
const CIVIC = '19XFC2F57GE000000';
const MUSTANG = '1FA6P8TH5J5100000';

/** A well-formed VIN with a right check digit whose maker (its first 3 characters) vPIC lacks. */
function unknownMaker(serial: number): string {
  const vin = `111111111111${String(serial).padStart(5, '0')}`;
  return `${vin.slice(0, 8)}${vinCheckDigit(vin)}${vin.slice(9)}`;
}

/** A decoder standing in for the real one: `answer` says what each VIN comes to, or throws. */
function decoderThat(answer: (vin: string) => VinDecode | null): VinDecoder {
  return {
    state: {},
    cached: () => undefined,
    decode: async (vin) => answer(vin),
    close: async () => {},
  };
}

const teslaDecode = (vin: string): VinDecode => ({
  vin,
  make: 'Tesla',
  model: 'Model 3',
  catalogue: { make: 'Tesla', model: 'Model 3' },
});

async function carPage(client: TestClient, id: string) {
  const response = await client.get(`/api/listings/${id}`);
  expect(response.status).toBe(200);
  return ListingDetailSchema.parse(await response.json());
}

describe('cars’ VIN decodes', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env: { VIN_DECODE_INTERVAL_SECONDS: '3600' } });
    seller = await signInAs(app, 'seller@demo.local');
  });
  afterAll(() => app.close());

  it('keeps what a listed car’s VIN decodes as, and decodes it again when the VIN changes', async () => {
    const car = await newCar(app, { seller, vin: TESLA });
    expect((await carPage(seller, car.id)).vinDecoded).toBeNull();

    expect(await app.runVinDecoding()).toEqual({ decoded: 1, undecodable: 0, failed: 0 });
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
    expect(await app.runVinDecoding()).toEqual({ decoded: 1, undecodable: 0, failed: 0 });
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
    expect(await app.runVinDecoding()).toEqual({ decoded: 0, undecodable: 1, failed: 0 });
    expect(await app.runVinDecoding()).toEqual({ decoded: 0, undecodable: 0, failed: 0 });
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
    expect(await app.runVinDecoding()).toEqual({ decoded: 0, undecodable: 0, failed: 0 });
  });

  it('marks a VIN the decoder fails on and goes on; tries it again a day later', async () => {
    const bad = unknownMaker(600);
    const good = await newCar(app, { seller, vin: unknownMaker(601) });
    // The newest car: it leads each claim.
    const failing = await newCar(app, { seller, vin: bad });
    const { db } = app.database;

    const failsOnBad = decoderThat((vin) => {
      if (vin === bad) throw new VinDecodeFailed();
      return teslaDecode(vin);
    });
    expect(await decodeWaitingCars(db, failsOnBad)).toEqual({
      decoded: 1,
      undecodable: 0,
      failed: 1,
    });
    expect((await carPage(seller, good.id)).vinDecoded).toMatchObject({ make: 'Tesla' });
    expect((await carPage(seller, failing.id)).vinDecoded).toBeNull();
    // Not tried again within the day.
    expect(await decodeWaitingCars(db, failsOnBad)).toEqual({
      decoded: 0,
      undecodable: 0,
      failed: 0,
    });

    // A day later (its mark made older), it is claimed again.
    await db.execute(sql`update listing
      set vin_decoded = jsonb_set(vin_decoded, '{at}', to_jsonb(now() - interval '25 hours'))
      where id = ${failing.id} and vin_decoded->>'failed' is not null`);
    const decodesNow = decoderThat(teslaDecode);
    expect(await decodeWaitingCars(db, decodesNow)).toEqual({
      decoded: 1,
      undecodable: 0,
      failed: 0,
    });
    expect((await carPage(seller, failing.id)).vinDecoded).toMatchObject({ make: 'Tesla' });
  });

  it('ends the run when the decoder is busy, giving the cars claimed back', async () => {
    const cars = [
      await newCar(app, { seller, vin: unknownMaker(700) }),
      await newCar(app, { seller, vin: unknownMaker(701) }),
    ];
    const { db } = app.database;
    const busy = decoderThat(() => {
      throw new AppError(503, 'unavailable');
    });
    await expect(decodeWaitingCars(db, busy)).rejects.toMatchObject({ statusCode: 503 });
    const kept = await queryRows<{ vinDecoded: unknown }>(
      db,
      sql`select vin_decoded as "vinDecoded" from listing
        where id in (${cars[0]!.id}, ${cars[1]!.id})`,
    );
    expect(kept).toEqual([{ vinDecoded: null }, { vinDecoded: null }]);
    expect(await decodeWaitingCars(db, decoderThat(teslaDecode))).toEqual({
      decoded: 2,
      undecodable: 0,
      failed: 0,
    });
  });
});

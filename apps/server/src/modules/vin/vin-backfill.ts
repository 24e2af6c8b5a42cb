import { sql, type SQL } from 'drizzle-orm';
import { vinProblem } from '@carmarket/shared';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { VinDecodeFailed, type VinDecoder } from './vin-decoder.ts';

/*
 * Cars keep what their VIN decodes as in `listing.vin_decoded` (decision 033): the decode (the
 * API's answer, VIN included), `{ vin, undecodable: true }` for a VIN vPIC does not know (so it is
 * not tried again each run), `{ vin, failed: true, at }` for one the decoder failed on (tried
 * again a day later), `{ claimedAt }` while a process decodes it, or null: not decoded yet.
 * Listing a car or changing its VIN leaves it null (vin.subscribers.ts), or fills it at once when
 * this process decoded that VIN lately; the job below decodes the rest, a few at a time.
 */

/** Cars claimed at once: each decode takes the decoder thread a few hundred milliseconds. */
const BATCH = 5;
/** A claim older than this was left by a process that stopped mid-batch: taken again. */
const CLAIM_LAPSES = sql`interval '10 minutes'`;
/**
 * A VIN the decoder failed on is tried again after this. Before it, the claim passes it by: the
 * claim takes the newest cars first, so a VIN failing each time would lead every batch.
 */
const FAILED_RETRY = sql`interval '1 day'`;

/** What a car's VIN decodes as, as the column keeps it. */
function stored(vin: string, decoded: ReturnType<VinDecoder['cached']>) {
  return decoded ? { ...decoded } : { vin, undecodable: true };
}

/**
 * `car.listed` and `car.edited` (VIN changed), in the seller's transaction: the car keeps the
 * decode this process has in memory for the VIN (the seller pressed "Fill from VIN" a moment
 * ago), else null for the job to decode. Never decodes here: it would hold the car's lock.
 */
export async function noteVinChanged(tx: Tx, decoder: VinDecoder, carId: string): Promise<void> {
  const [car] = await queryRows<{ vin: string | null }>(
    tx,
    sql`select vin from listing where id = ${carId}`,
  );
  const vin = car?.vin;
  const decoded = vin && !vinProblem(vin) ? decoder.cached(vin) : undefined;
  const value = vin && decoded !== undefined ? JSON.stringify(stored(vin, decoded)) : null;
  await tx.execute(sql`update listing set vin_decoded = ${value}::jsonb where id = ${carId}`);
}

/**
 * Claims up to BATCH cars whose VIN waits to be decoded, newest first, for this process: not
 * decoded yet, a claim lapsed, or a failure a day old.
 */
async function claim(db: Db): Promise<Array<{ id: string; vin: string }>> {
  return queryRows(
    db,
    sql`update listing set vin_decoded = jsonb_build_object('claimedAt', now())
      where id in (
        select id from listing
        where vin is not null
          and (vin_decoded is null
            or (vin_decoded->>'claimedAt' is not null
              and (vin_decoded->>'claimedAt')::timestamptz < now() - ${CLAIM_LAPSES})
            or (vin_decoded->>'failed' is not null
              and (vin_decoded->>'at')::timestamptz < now() - ${FAILED_RETRY}))
        order by created_at desc
        limit ${BATCH}
        for update skip locked)
      returning id, vin`,
  );
}

/** Writes what a claimed car's VIN came to, only while the car keeps that VIN and the claim. */
async function writeBack(db: Db, car: { id: string; vin: string }, value: SQL): Promise<void> {
  await db.execute(sql`update listing set vin_decoded = ${value}
    where id = ${car.id} and vin = ${car.vin} and vin_decoded->>'claimedAt' is not null`);
}

/**
 * One run: decodes claimed cars until none waits (or the server closes). A decode written back
 * only where the car still has that VIN and the claim: a VIN changed meanwhile was set back to
 * null by its edit and waits for the next claim. A VIN the decoder fails on is marked failed and
 * the run goes on; when the decoder cannot decode at all (busy, timed out, closing: any other
 * error), the claims left go back and the run ends: the next run tries again.
 */
export async function decodeWaitingCars(
  db: Db,
  decoder: VinDecoder,
  stopping: () => boolean = () => false,
): Promise<{ decoded: number; undecodable: number; failed: number }> {
  const done = { decoded: 0, undecodable: 0, failed: 0 };
  while (!stopping()) {
    const cars = await claim(db);
    if (cars.length === 0) break;
    for (const [index, car] of cars.entries()) {
      let decoded: ReturnType<VinDecoder['cached']>;
      try {
        // A VIN kept before the rule of 17 characters and a check digit decodes as nothing.
        // The job takes its turns with the people decoding, one VIN at a time: it neither waits
        // behind a queue of theirs nor holds the decoder from them.
        decoded = vinProblem(car.vin) ? null : await decoder.decode(car.vin, 'vin-decoding job');
      } catch (error) {
        if (error instanceof VinDecodeFailed) {
          await writeBack(
            db,
            car,
            sql`jsonb_build_object('vin', ${car.vin}::text, 'failed', true, 'at', now())`,
          );
          done.failed += 1;
          continue;
        }
        const unclaimed = cars.slice(index).map((left) => left.id);
        await db.execute(sql`update listing set vin_decoded = null
          where id in (${sql.join(
            unclaimed.map((id) => sql`${id}`),
            sql`, `,
          )}) and vin_decoded->>'claimedAt' is not null`);
        throw error;
      }
      await writeBack(db, car, sql`${JSON.stringify(stored(car.vin, decoded))}::jsonb`);
      done[decoded ? 'decoded' : 'undecodable'] += 1;
    }
  }
  return done;
}

import { asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { listingPriceChange } from '../../db/schema.ts';

/*
 * A car's price history (issue 31, part 3): every asking price it has had is a row of
 * listing_price_change, one when it is listed and one at each change of price, so the newest row
 * is the price it asks now. The seller's calls that set a price (seller.service.ts) write it in
 * their own transaction; the demo seed writes each car's first row itself. It is the car's own
 * data, kept by the listings module, not a feature's view of it.
 */

/**
 * Records the price a car is listed at, in the transaction that inserts it: its time is the
 * transaction's (now()), as is the car's createdAt, so the first entry is when it was listed.
 * No change of price can come before it: nobody sees the car until it commits.
 */
export async function recordPrice(tx: Tx, carId: string, priceCents: number): Promise<void> {
  await tx.insert(listingPriceChange).values({ listingId: carId, priceCents });
}

/**
 * A new price from the seller's edit: recorded when it differs from the one it replaces. An edit
 * that sends the same price again (the form sends every field) is no change of price.
 */
export async function recordRepricing(
  tx: Tx,
  carId: string,
  oldPriceCents: number,
  newPriceCents: number,
): Promise<void> {
  if (newPriceCents === oldPriceCents) return;
  // The time of the write, under the car's lock (the caller holds it), not the transaction's
  // start (now(), the column's default): an edit that began first may take the lock second, and
  // its change of price is then the newer one. Under the lock the times rise with each change.
  await tx
    .insert(listingPriceChange)
    .values({ listingId: carId, priceCents: newPriceCents, at: sql`clock_timestamp()` });
}

const historyOf = prepared('price_history_of', (db) =>
  db
    .select({ price: listingPriceChange.priceCents, at: listingPriceChange.at })
    .from(listingPriceChange)
    .where(eq(listingPriceChange.listingId, sql.placeholder('id')))
    // By when each was written under the car's lock (recordRepricing), so the last is the price
    // the car asks now; the id only makes the order of a seeded tie (never a change) stable.
    .orderBy(asc(listingPriceChange.at), asc(listingPriceChange.id)),
);

/**
 * The car's prices, oldest first, the price it asks now last. A car written without its history
 * (a test's fixture inserting rows directly) answers its current price since it was listed.
 */
export async function priceHistory(
  db: Db,
  car: { id: string; repriceCents: number; createdAt: Date },
): Promise<Array<{ price: number; at: string }>> {
  const rows = await historyOf(db, { id: car.id });
  if (rows.length === 0) return [{ price: car.repriceCents, at: car.createdAt.toISOString() }];
  return rows.map((row) => ({ price: row.price, at: row.at.toISOString() }));
}

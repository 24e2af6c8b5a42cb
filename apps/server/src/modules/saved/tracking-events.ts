import { and, eq, gt, inArray, isNull, min, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  carNotice,
  newCarQueue,
  savedCar,
  savedSearch,
  savedSearchMatch,
} from '../../db/schema.ts';

/*
 * What keep-track keeps of the core's changes, inside the change's own transaction so the news
 * is kept exactly when the change is (decision 010). The core publishes events and
 * saved.subscribers.ts calls these (decision 026); the alert worker sends from what they keep.
 */

/** A car was listed: it waits to be matched against saved searches. */
export async function queueNewCar(tx: Db | Tx, carId: string): Promise<void> {
  await tx.insert(newCarQueue).values({ listingId: carId }).onConflictDoNothing();
}

/**
 * A car's price changed: the people who saved it are owed a notice if it went down. Changes
 * before the notice is sent make one notice, from the first price to the last (a price put down
 * and up again before it is sent tells no one), and a drop is news only below every price told
 * of before, so editing a price over and over sends no stream of mail. Call it with the car
 * locked.
 */
export async function noticePriceDrop(
  tx: Tx,
  carId: string,
  oldPriceCents: number,
  newPriceCents: number,
): Promise<void> {
  if (newPriceCents === oldPriceCents) return;
  const [pending] = await tx
    .update(carNotice)
    .set({ newPriceCents })
    .where(
      and(
        eq(carNotice.listingId, carId),
        eq(carNotice.kind, 'price-drop'),
        isNull(carNotice.sentAt),
      ),
    )
    .returning({ id: carNotice.id, oldPriceCents: carNotice.oldPriceCents });
  if (pending) {
    // Back at or above where it began: nothing to tell.
    if (newPriceCents >= pending.oldPriceCents!) {
      await tx.delete(carNotice).where(eq(carNotice.id, pending.id));
    }
    return;
  }
  if (newPriceCents > oldPriceCents) return;
  // Only news below every price already told of: a price flipped up and down tells once.
  const [told] = await tx
    .select({ lowest: min(carNotice.newPriceCents) })
    .from(carNotice)
    .where(and(eq(carNotice.listingId, carId), eq(carNotice.kind, 'price-drop')));
  if (told?.lowest != null && newPriceCents >= told.lowest) return;
  await tx
    .insert(carNotice)
    .values({ listingId: carId, kind: 'price-drop', oldPriceCents, newPriceCents });
}

/** A car was sold: the people who saved it are owed a notice. */
export async function noticeSold(tx: Db | Tx, carId: string): Promise<void> {
  await tx.insert(carNotice).values({ listingId: carId, kind: 'sold' });
}

/**
 * Its seller put a withdrawn car back on sale: the people who saved it are owed a notice. Once a
 * day at most: a car taken off and put back again and again tells its savers once (a notice not
 * sent yet already tells them; the worker skips it while the car is off sale).
 */
export async function noticeBackOnSale(tx: Db | Tx, carId: string): Promise<void> {
  const [told] = await tx
    .select({ id: carNotice.id })
    .from(carNotice)
    .where(
      and(
        eq(carNotice.listingId, carId),
        eq(carNotice.kind, 'back-on-sale'),
        gt(carNotice.createdAt, sql`now() - interval '1 day'`),
      ),
    )
    .limit(1);
  if (told) return;
  await tx.insert(carNotice).values({ listingId: carId, kind: 'back-on-sale' });
}

/** Cars removed from the site (an admin, a deleted seller) are no longer anyone's saved cars. */
export async function forgetSavesOfCars(tx: Db | Tx, carIds: string[]): Promise<void> {
  if (carIds.length === 0) return;
  await tx.delete(savedCar).where(inArray(savedCar.listingId, carIds));
}

/** A deleted account's saved cars and searches go with it (so no more mail for them). */
export async function forgetSavesOf(tx: Db | Tx, userId: string): Promise<void> {
  await tx.delete(savedCar).where(eq(savedCar.userId, userId));
  // The searches' rows first, as the alert worker locks them first (no deadlock with it).
  const searches = await tx
    .delete(savedSearch)
    .where(eq(savedSearch.userId, userId))
    .returning({ id: savedSearch.id });
  if (searches.length === 0) return;
  await tx.delete(savedSearchMatch).where(
    inArray(
      savedSearchMatch.searchId,
      searches.map((search) => search.id),
    ),
  );
}

/**
 * A category was deleted and its cars moved to `movedTo`: searches kept within it now search
 * there (its id in the kept query too), and with no category when it had nowhere to go.
 */
export async function moveSavedSearchesOfCategory(
  tx: Db | Tx,
  categoryId: string,
  movedTo: string | null,
): Promise<void> {
  await tx
    .update(savedSearch)
    .set({
      categoryId: movedTo,
      query: movedTo
        ? sql`replace(${savedSearch.query}, ${`category=${categoryId}`}, ${`category=${movedTo}`})`
        : sql`regexp_replace(${savedSearch.query}, ${`&?category=${categoryId}`}, '')`,
    })
    .where(eq(savedSearch.categoryId, categoryId));
}

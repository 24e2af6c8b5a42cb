import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { MAX_SAVED_CARS } from '@carmarket/shared';
import type { Db, Tx } from '../../db/client.ts';
import { carNotice, listing, savedCar, user } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { listingWithSeller } from '../listings/listings.service.ts';

/**
 * Holds the person's row until the transaction ends: one save (of a car or a search) at a time
 * per person, so the limits hold under concurrent requests.
 */
export async function lockSavesOf(tx: Tx, userId: string): Promise<void> {
  // NO KEY: rows that refer to the person (bookings, sessions) can still be written meanwhile.
  await tx.execute(sql`select 1 from ${user} where ${user.id} = ${userId} for no key update`);
}

/** Saves a car on sale for the person (again: nothing changes). */
export async function saveCar(db: Db, actor: SessionUser, listingId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSavesOf(tx, actor.id);
    const [already] = await tx
      .select({ listingId: savedCar.listingId })
      .from(savedCar)
      .where(and(eq(savedCar.userId, actor.id), eq(savedCar.listingId, listingId)));
    if (already) return;
    const [car] = await tx
      .select({ price: listing.repriceCents, status: listing.status })
      .from(listing)
      .where(eq(listing.id, listingId));
    if (!car || (car.status !== 'available' && car.status !== 'reserved')) {
      throw notFound('That car');
    }
    const [{ saved } = { saved: 0 }] = await tx
      .select({ saved: count() })
      .from(savedCar)
      .where(eq(savedCar.userId, actor.id));
    if (saved >= MAX_SAVED_CARS) {
      throw conflict(
        `You have saved ${MAX_SAVED_CARS} cars, the most you can keep. Remove some to save more.`,
      );
    }
    await tx
      .insert(savedCar)
      .values({ userId: actor.id, listingId, priceAtSavingCents: car.price })
      .onConflictDoNothing();
  });
}

/** Forgets a saved car (not saved: nothing changes). */
export async function unsaveCar(db: Db, actor: SessionUser, listingId: string): Promise<void> {
  await db
    .delete(savedCar)
    .where(and(eq(savedCar.userId, actor.id), eq(savedCar.listingId, listingId)));
}

export type SavedCarRow = Awaited<ReturnType<typeof savedCarsOf>>[number];

/** How long a saved car put back on sale says so in the list. */
const BACK_ON_SALE_SHOWN = sql`interval '14 days'`;

/**
 * When its seller last put the car back on sale, if they did since it was saved and lately (the
 * notice of it, which the mail tells too); null when not. Read as the column is, whichever form
 * the driver gives (the decoder never sees a null).
 */
const backOnSaleAt = sql`(select max(${carNotice.createdAt}) from ${carNotice}
  where ${carNotice.listingId} = ${listing.id} and ${carNotice.kind} = 'back-on-sale'
    and ${carNotice.createdAt} > ${savedCar.createdAt}
    and ${carNotice.createdAt} > now() - ${BACK_ON_SALE_SHOWN})`.mapWith(
  carNotice.createdAt,
) as SQL<Date | null>;

/**
 * A person's saved cars as they are now, the latest saved first; removed cars are not kept. Each
 * says when it came back on sale, if it did lately.
 */
export async function savedCarsOf(db: Db, userId: string) {
  return db
    .select({
      car: listingWithSeller,
      savedAt: savedCar.createdAt,
      priceAtSavingCents: savedCar.priceAtSavingCents,
      backOnSaleAt,
    })
    .from(savedCar)
    .innerJoin(listing, eq(listing.id, savedCar.listingId))
    .innerJoin(user, eq(user.id, listing.sellerId))
    .where(
      and(
        eq(savedCar.userId, userId),
        inArray(listing.status, ['available', 'reserved', 'sold', 'withdrawn']),
      ),
    )
    .orderBy(desc(savedCar.createdAt));
}

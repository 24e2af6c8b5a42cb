import { and, eq, gt, inArray, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import { CLOSED_BECAUSE, type BookingCloseReason } from '@carmarket/shared';
import type { Db, Tx } from '../../db/client.ts';
import { booking, carHold, listing } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import type { DomainEvents } from '../../lib/events.ts';
import type { Mailer } from '../../adapters/mail.ts';

/*
 * The car lifecycle (DESIGN.md section 5): the only code that changes a car's status and the
 * statuses of its bookings. Callers own the transaction and have checked the policies; each step
 * here is one conditional statement, so a car that changed meanwhile is simply not matched.
 *
 *   available -> reserved (a buyer paying holds it) -> sold (payment succeeded)
 *   reserved  -> available (the hold lapses, the payment fails, the buyer cancels)
 *   available -> withdrawn (its seller)      withdrawn -> available (its seller relists it)
 *   sold -> withdrawn (an admin refunded its sale after a dispute: the booking is refunded)
 *   any but sold -> removed (an admin)
 *   available/reserved -> removed (its seller's account was deleted; withdrawn cars stay so)
 *
 * Lock order, everywhere: the car's row first, then the booking's. Every payment step for a car
 * queues on the car, and closing its other bookings cannot deadlock with a buyer waiting in line.
 * Taking a hold first takes the buyer's hold lock (lockBuyerHolds), then the address's
 * (lockAddressHolds), so that one buyer's requests for two cars cannot both pass the
 * one-hold-per-buyer rule, nor one address's requests its live-hold limit; nothing else takes them.
 * Every hold taken is recorded (car_hold) with when it ended, for the limits on taking holds.
 *
 * What the rest of the site must hear of (a car sold, cars gone) is published as a domain event
 * in the same transaction (lib/events.ts); the lifecycle does not know who listens.
 */

type Car = typeof listing.$inferSelect;
type Booking = typeof booking.$inferSelect;

/**
 * Whether a car's hold is live, the one rule everything asks: the car is reserved and the hold
 * has not lapsed. A hold that lapsed but was not swept yet is no hold: the car shows, can be held
 * and sells as available. `liveHold` asks it of a row read already, `liveHoldWhere` in a query.
 */
export function liveHold(
  car: Pick<Car, 'status' | 'holdBookingId' | 'holdExpiresAt'>,
  now = new Date(),
): { bookingId: string | null; until: Date } | null {
  if (car.status !== 'reserved' || car.holdExpiresAt === null) return null;
  return car.holdExpiresAt > now
    ? { bookingId: car.holdBookingId, until: car.holdExpiresAt }
    : null;
}

export function liveHoldWhere(now: Date | SQL = new Date()): SQL {
  return and(eq(listing.status, 'reserved'), gt(listing.holdExpiresAt, now))!;
}

/** A booking's buyer and name, for the mail that tells them their booking closed. */
export type ClosedBooking = { buyerEmail: string; buyerName: string };

/** Locks a booking's car, then the booking (the lock order above). */
export async function lockCarAndBooking(
  tx: Tx,
  bookingId: string,
): Promise<{ car: Car; booking: Booking } | undefined> {
  const [target] = await tx
    .select({ listingId: booking.listingId })
    .from(booking)
    .where(eq(booking.id, bookingId));
  if (!target) return undefined;
  const [car] = await tx
    .select()
    .from(listing)
    .where(eq(listing.id, target.listingId))
    .for('update');
  const [held] = await tx.select().from(booking).where(eq(booking.id, bookingId)).for('update');
  return car && held ? { booking: held, car } : undefined;
}

export async function lockCar(tx: Tx, carId: string): Promise<Car | undefined> {
  const [car] = await tx.select().from(listing).where(eq(listing.id, carId)).for('update');
  return car;
}

/** Serializes one buyer's holds, for the rest of the transaction (see the lock order above). */
export async function lockBuyerHolds(tx: Tx, buyerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`hold:${buyerId}`}, 0))`);
}

/** Serializes the holds asked from one address, for the rest of the transaction. */
export async function lockAddressHolds(tx: Tx, ip: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`hold-ip:${ip}`}, 0))`);
}

/** The car this buyer holds now through another booking than `exceptBookingId`, if any. */
export async function otherCarHeldBy(
  tx: Tx,
  buyerId: string,
  exceptBookingId: string,
): Promise<{ name: string; holdExpiresAt: Date } | undefined> {
  const [held] = await tx
    .select({ name: listing.name, holdExpiresAt: listing.holdExpiresAt })
    .from(listing)
    .innerJoin(booking, eq(booking.id, listing.holdBookingId))
    .where(and(liveHoldWhere(), eq(booking.buyerId, buyerId), ne(booking.id, exceptBookingId)));
  return held ? { name: held.name, holdExpiresAt: held.holdExpiresAt! } : undefined;
}

/**
 * available/reserved -> reserved for this booking until `until` (the caller locked the car), and
 * the hold recorded: who took it, from which address and browser, until when.
 */
export async function holdCar(
  tx: Tx,
  hold: {
    carId: string;
    bookingId: string;
    buyerId: string;
    ip: string;
    browser: string;
    until: Date;
  },
) {
  await tx
    .update(listing)
    .set({ status: 'reserved', holdBookingId: hold.bookingId, holdExpiresAt: hold.until })
    .where(eq(listing.id, hold.carId));
  await tx.insert(carHold).values({
    listingId: hold.carId,
    bookingId: hold.bookingId,
    buyerId: hold.buyerId,
    ip: hold.ip,
    browser: hold.browser,
    expiresAt: hold.until,
  });
}

/**
 * The sale: the booking is paid, the car sold (and no longer advertised), its other open
 * bookings closed. `taken` when the database's one-paid-booking-per-car rule refuses it.
 */
export async function sellCar(
  tx: Tx,
  events: DomainEvents,
  sale: { carId: string; bookingId: string; transactionId: string; paidAt: Date },
): Promise<{ sold: true; closed: ClosedBooking[] } | { sold: false; reason: 'taken' }> {
  let paid: { priceCents: number; currency: string } | undefined;
  try {
    [paid] = await tx
      .update(booking)
      .set({ status: 'paid', paidAt: sale.paidAt, transactionId: sale.transactionId })
      .where(eq(booking.id, sale.bookingId))
      .returning({ priceCents: booking.priceCents, currency: booking.currency });
  } catch (error) {
    if (isUniqueViolation(error, 'booking_one_paid_per_listing')) {
      return { sold: false, reason: 'taken' };
    }
    throw error;
  }
  const [car] = await tx
    .update(listing)
    .set({ status: 'sold', holdBookingId: null, holdExpiresAt: null, advertisedAt: null })
    .where(eq(listing.id, sale.carId))
    .returning({ sellerId: listing.sellerId });
  await events.publish(tx, 'car.sold', {
    carId: sale.carId,
    bookingId: sale.bookingId,
    sellerId: car!.sellerId,
    priceCents: paid!.priceCents,
    currency: paid!.currency,
    paidAt: sale.paidAt,
  });
  return { sold: true, closed: await closeOpenBookings(tx, sale.carId, 'sold') };
}

/**
 * A sale undone by a refund (decision 044): the paid booking -> refunded (keeping when and how it
 * was paid), its car sold -> withdrawn, back in its seller's hands: they may put it on sale again
 * (relistCar) and another buyer may then buy it. False when the booking was not the car's paid
 * one (refunded already).
 */
export async function refundSale(
  tx: Tx,
  sale: { carId: string; bookingId: string },
): Promise<boolean> {
  // The lock order: the car, then the booking.
  const [car] = await tx
    .update(listing)
    .set({ status: 'withdrawn', holdBookingId: null, holdExpiresAt: null, advertisedAt: null })
    .where(and(eq(listing.id, sale.carId), eq(listing.status, 'sold')))
    .returning({ id: listing.id });
  const [refunded] = await tx
    .update(booking)
    .set({ status: 'refunded' })
    .where(
      and(
        eq(booking.id, sale.bookingId),
        eq(booking.listingId, sale.carId),
        eq(booking.status, 'paid'),
      ),
    )
    .returning({ id: booking.id });
  return Boolean(car && refunded);
}

/**
 * reserved -> available for the cars these bookings hold at checkout; a live hold given back so
 * is recorded as ended now (the buyer's wait to hold that car again runs from then).
 */
export async function releaseHolds(tx: Db | Tx, bookingIds: string[]): Promise<void> {
  if (bookingIds.length === 0) return;
  const now = new Date();
  await tx
    .update(listing)
    .set({ status: 'available', holdBookingId: null, holdExpiresAt: null })
    .where(and(eq(listing.status, 'reserved'), inArray(listing.holdBookingId, bookingIds)));
  await tx
    .update(carHold)
    .set({ endedAt: now })
    .where(
      and(
        inArray(carHold.bookingId, bookingIds),
        isNull(carHold.endedAt),
        gt(carHold.expiresAt, now),
      ),
    );
}

/** reserved -> available for every car whose hold has lapsed; answers how many. */
export async function releaseLapsedHolds(db: Db): Promise<number> {
  const released = await db
    .update(listing)
    .set({ status: 'available', holdBookingId: null, holdExpiresAt: null })
    .where(and(eq(listing.status, 'reserved'), lte(listing.holdExpiresAt, new Date())))
    .returning({ id: listing.id });
  return released.length;
}

/** available -> withdrawn (no longer advertised); its open bookings close. Null if not available. */
export async function withdrawCar(tx: Tx, carId: string): Promise<ClosedBooking[] | null> {
  const [updated] = await tx
    .update(listing)
    .set({ status: 'withdrawn', advertisedAt: null })
    .where(and(eq(listing.id, carId), eq(listing.status, 'available')))
    .returning({ id: listing.id });
  return updated ? closeOpenBookings(tx, carId, 'withdrawn') : null;
}

/**
 * withdrawn -> available: its seller puts it back on sale, with its photos, bookings' history and
 * saves as they were (not advertised again until the seller says so). False if not withdrawn.
 */
export async function relistCar(tx: Tx, events: DomainEvents, carId: string): Promise<boolean> {
  const [updated] = await tx
    .update(listing)
    .set({ status: 'available' })
    .where(and(eq(listing.id, carId), eq(listing.status, 'withdrawn')))
    .returning({ id: listing.id });
  if (!updated) return false;
  await events.publish(tx, 'car.relisted', { carId });
  return true;
}

/**
 * Any status but sold -> removed (a hold ends with it); its open bookings close. Null if the car
 * was sold or removed already.
 */
export async function removeCar(
  tx: Tx,
  events: DomainEvents,
  carId: string,
): Promise<ClosedBooking[] | null> {
  const [updated] = await tx
    .update(listing)
    .set({ status: 'removed', advertisedAt: null, holdBookingId: null, holdExpiresAt: null })
    .where(
      and(eq(listing.id, carId), inArray(listing.status, ['available', 'reserved', 'withdrawn'])),
    )
    .returning({ id: listing.id });
  if (!updated) return null;
  await events.publish(tx, 'cars.removed', { carIds: [carId] });
  return closeOpenBookings(tx, carId, 'removed');
}

/**
 * A deleted seller's cars leave the market: those on sale or held are removed, answered each
 * with its closed bookings. Withdrawn cars stay withdrawn, the real reason they are off sale (the
 * admin's figures would otherwise count them as removed). No one keeps any of them saved.
 */
export async function removeCarsOfSeller(tx: Tx, events: DomainEvents, sellerId: string) {
  const removed = await tx
    .update(listing)
    .set({ status: 'removed', advertisedAt: null, holdBookingId: null, holdExpiresAt: null })
    .where(and(eq(listing.sellerId, sellerId), inArray(listing.status, ['available', 'reserved'])))
    .returning({ id: listing.id, name: listing.name });
  const withdrawn = await tx
    .select({ id: listing.id })
    .from(listing)
    .where(and(eq(listing.sellerId, sellerId), eq(listing.status, 'withdrawn')));
  await events.publish(tx, 'cars.removed', {
    carIds: [...removed, ...withdrawn].map((car) => car.id),
  });
  const closedByCar: Array<{ carName: string; closed: ClosedBooking[] }> = [];
  for (const car of removed) {
    closedByCar.push({
      carName: car.name,
      closed: await closeOpenBookings(tx, car.id, 'seller-deleted'),
    });
  }
  return closedByCar;
}

/**
 * pending -> cancelled for one booking (its buyer cancels); a car it held at checkout is given
 * back at once, not when the hold lapses. Undefined when it was not pending.
 */
export async function cancelPendingBooking(tx: Tx, bookingId: string) {
  const [cancelled] = await tx
    .update(booking)
    .set({ status: 'cancelled' })
    .where(and(eq(booking.id, bookingId), eq(booking.status, 'pending')))
    .returning({ id: booking.id, listingId: booking.listingId });
  if (cancelled) await releaseHolds(tx, [cancelled.id]);
  return cancelled;
}

/** A deleted buyer's pending bookings are cancelled and any car they held is freed. */
export async function cancelBookingsOfBuyer(tx: Tx, buyerId: string) {
  const cancelled = await tx
    .update(booking)
    .set({ status: 'cancelled' })
    .where(and(eq(booking.buyerId, buyerId), eq(booking.status, 'pending')))
    .returning({ id: booking.id, listingId: booking.listingId });
  await releaseHolds(
    tx,
    cancelled.map((b) => b.id),
  );
  return cancelled;
}

/**
 * pending -> closed for a car's bookings, with why (it was sold, withdrawn, removed, or its
 * seller's account closed), so the buyer's My Orders says what the mail said: who held them.
 */
export async function closeOpenBookings(
  tx: Db | Tx,
  carId: string,
  reason: BookingCloseReason,
): Promise<ClosedBooking[]> {
  return tx
    .update(booking)
    .set({ status: 'closed', closedReason: reason })
    .where(and(eq(booking.listingId, carId), eq(booking.status, 'pending')))
    .returning({ buyerEmail: booking.buyerEmail, buyerName: booking.buyerName });
}

/** Tells the buyers whose bookings closed, and why. Sent after the transaction commits. */
export async function notifyClosed(
  mailer: Mailer,
  carName: string,
  closed: ClosedBooking[],
  reason: BookingCloseReason,
): Promise<void> {
  await Promise.allSettled(
    closed.map((b) =>
      mailer.send({
        to: b.buyerEmail,
        subject: `${carName} is no longer available`,
        text: `Hello ${b.buyerName},\n\nYour booking of the ${carName} has been closed because ${CLOSED_BECAUSE[reason]}. Nothing was charged. Other cars are waiting for you on CarMarket.`,
      }),
    ),
  );
}

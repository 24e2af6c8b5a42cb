import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { formatMoney, type CreateBookingInput } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { booking, dispute, listing, settlement, user } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import type { DomainEvents } from '../../lib/events.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { queueMail, type MailSender } from '../mail/mail-queue.ts';
import { cancelPendingBooking } from '../listings/lifecycle.ts';
import { bookingPolicy } from './bookings.policy.ts';

const bookingWithCar = {
  ...getTableColumns(booking),
  carName: listing.name,
  carImages: listing.images,
  carYear: listing.year,
  carStatus: listing.status,
  sellerId: listing.sellerId,
  sellerName: listing.sellerName,
  // A paid booking's money (decision 037): its settlement and the buyer's dispute, if any.
  settlementState: settlement.state,
  releaseDueAt: settlement.releaseDueAt,
  releasedAt: settlement.releasedAt,
  releasedBy: settlement.releasedBy,
  refundedAt: settlement.refundedAt,
  feeCents: settlement.feeCents,
  sellerCents: settlement.sellerCents,
  disputeId: dispute.id,
};

export type BookingRow = Awaited<ReturnType<typeof selectBookings>>[number];

function selectBookings(db: Db) {
  return db
    .select(bookingWithCar)
    .from(booking)
    .innerJoin(listing, eq(listing.id, booking.listingId))
    .leftJoin(settlement, eq(settlement.bookingId, booking.id))
    .leftJoin(dispute, eq(dispute.bookingId, booking.id))
    .$dynamic();
}

/**
 * Books a car for a buyer. Name, email and price come from the session and the car, never from
 * the request. The database's one-open-booking-per-buyer-and-car index settles races.
 *
 * `requestKey` is the request's Idempotency-Key: a retry of a request whose answer was lost (the
 * buyer's network dropped) answers the booking the first one made, and sends no mail again.
 * A conversation the buyer had about the car shows the booking as an event line.
 */
export async function createBooking(
  db: Db,
  mail: MailSender,
  events: DomainEvents,
  actor: SessionUser,
  input: CreateBookingInput,
  requestKey: string | undefined,
  site: { requireVerifiedEmail: boolean },
): Promise<{ id: string }> {
  if (requestKey) {
    const replayed = await bookingOfRequest(db, actor.id, requestKey, input.listingId);
    if (replayed) return replayed;
  }
  const [car] = await db
    .select({
      id: listing.id,
      name: listing.name,
      status: listing.status,
      sellerId: listing.sellerId,
      repriceCents: listing.repriceCents,
      currency: listing.currency,
      sellerEmail: user.email,
      sellerName: user.name,
    })
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .where(eq(listing.id, input.listingId));
  if (!car || car.status === 'withdrawn' || car.status === 'removed') {
    throw new AppError(404, 'not-found', 'That car was not found.', { field: 'listingId' });
  }
  authorize(bookingPolicy.canBook(actor, car, site));
  if (car.status !== 'available') throw conflict('This car is no longer available for booking.');

  const price = formatMoney(car.repriceCents, car.currency);
  let id: string;
  let afterCommit: () => Promise<void>;
  try {
    ({ id, afterCommit } = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(booking)
        .values({
          listingId: car.id,
          buyerId: actor.id,
          buyerName: actor.name,
          buyerEmail: actor.email,
          phone: input.userPhone,
          location: input.userLocation,
          priceCents: car.repriceCents,
          currency: car.currency,
          requestKey,
        })
        .returning({ id: booking.id });
      // A conversation the buyer had about the car shows the booking (messages subscribes).
      const afterCommit = await events.publish(tx, 'booking.created', {
        bookingId: row!.id,
        carId: car.id,
        buyer: { id: actor.id, name: actor.name },
        priceCents: car.repriceCents,
        currency: car.currency,
        location: input.userLocation,
      });
      // The notices are queued by the booking's transaction: sent once it commits (never for a
      // booking that failed), and the answer does not wait on a mail server (decision 010).
      await queueMail(
        tx,
        {
          to: car.sellerEmail,
          subject: `New booking: ${car.name}`,
          text: `Hello ${car.sellerName},\n\n${actor.name} booked your ${car.name} at ${price}.\nPhone: ${input.userPhone}\nMeeting place: ${input.userLocation}\n\nThe buyer will pay through CarMarket; you will get a sale notice when they do.`,
        },
        {
          to: actor.email,
          subject: `You booked ${car.name}`,
          text: `Hello ${actor.name},\n\nYour booking of the ${car.name} at ${price} is in. Pay for it from My Orders to make the car yours; until then other buyers can still book it.`,
        },
      );
      return { id: row!.id, afterCommit };
    }));
  } catch (error) {
    // The same request twice at once: the one that lost answers what the winner booked.
    const replayed = requestKey && (await bookingOfRequest(db, actor.id, requestKey, car.id));
    if (replayed) return replayed;
    if (isUniqueViolation(error, 'booking_one_open_per_buyer_listing')) {
      const [open] = await db
        .select({ id: booking.id })
        .from(booking)
        .where(
          and(
            eq(booking.buyerId, actor.id),
            eq(booking.listingId, car.id),
            eq(booking.status, 'pending'),
          ),
        );
      throw new AppError(
        409,
        'conflict',
        'You already have an open booking for this car. See My Orders.',
        open ? { bookingId: open.id } : {},
      );
    }
    throw error;
  }

  mail.kick();
  await afterCommit();
  return { id };
}

/**
 * The booking this buyer's request with this Idempotency-Key made, if any. A key used to book
 * another car is refused: it belongs to that request.
 */
async function bookingOfRequest(
  db: Db,
  buyerId: string,
  requestKey: string,
  listingId: string,
): Promise<{ id: string } | undefined> {
  const [made] = await db
    .select({ id: booking.id, listingId: booking.listingId })
    .from(booking)
    .where(and(eq(booking.buyerId, buyerId), eq(booking.requestKey, requestKey)));
  if (made && made.listingId !== listingId) {
    throw new AppError(
      409,
      'conflict',
      'This Idempotency-Key was already used to book another car; send a new key.',
      { field: 'idempotency-key' },
    );
  }
  return made && { id: made.id };
}

/** The bookings of the buyer with this email, newest first. */
const bookingsByEmail = prepared('bookings_by_email', (db) =>
  selectBookings(db)
    .innerJoin(user, eq(user.id, booking.buyerId))
    .where(eq(sql`lower(${user.email})`, sql.placeholder('email')))
    .orderBy(desc(booking.createdAt)),
);

export async function bookingsOfEmail(db: Db, email: string): Promise<BookingRow[]> {
  return bookingsByEmail(db, { email: email.toLowerCase() });
}

const bookingById = prepared('booking_by_id', (db) =>
  selectBookings(db).where(eq(booking.id, sql.placeholder('id'))),
);

export async function findBooking(db: Db, id: string): Promise<BookingRow | undefined> {
  const [row] = await bookingById(db, { id });
  return row;
}

export type ReceiptRow = BookingRow & { paidAt: Date; transactionId: string };

/** A paid (or refunded) booking with what its receipt shows; undefined for one never paid. */
export function receiptOf(row: BookingRow): ReceiptRow | undefined {
  const { paidAt, transactionId } = row;
  return (row.status === 'paid' || row.status === 'refunded') && paidAt && transactionId
    ? { ...row, paidAt, transactionId }
    : undefined;
}

/** The buyer cancels a pending booking. */
export async function cancelBooking(db: Db, actor: SessionUser, id: string): Promise<BookingRow> {
  const found = await findBooking(db, id);
  if (!found) throw notFound('That booking');
  authorize(bookingPolicy.canCancel(actor, found));
  const cancelled = await db.transaction((tx) => cancelPendingBooking(tx, id));
  if (!cancelled) throw conflict(`This booking is ${found.status} and can no longer be cancelled.`);
  return (await findBooking(db, id))!;
}

/** Bookings of a seller's own cars (or every booking, for an admin), with whether the car sold. */
export async function bookedItems(db: Db, sellerId: string | null) {
  const sold = sql<boolean>`exists (select 1 from ${booking} as paid where paid.listing_id = ${booking.listingId} and paid.status = 'paid')`;
  const query = db
    .select({ ...bookingWithCar, sold })
    .from(booking)
    .innerJoin(listing, eq(listing.id, booking.listingId))
    .leftJoin(settlement, eq(settlement.bookingId, booking.id))
    .leftJoin(dispute, eq(dispute.bookingId, booking.id))
    .$dynamic();
  return (sellerId ? query.where(eq(listing.sellerId, sellerId)) : query).orderBy(
    desc(booking.createdAt),
  );
}

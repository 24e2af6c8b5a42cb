import { desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { formatMoney, type CreateBookingInput } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { booking, listing, user } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { Mailer } from '../../plugins/mail.ts';
import { cancelPendingBooking } from '../listings/lifecycle.ts';
import { bookingPolicy } from './bookings.policy.ts';

const bookingWithCar = {
  ...getTableColumns(booking),
  carName: listing.name,
  carImages: listing.images,
  sellerId: listing.sellerId,
  sellerName: listing.sellerName,
};

export type BookingRow = Awaited<ReturnType<typeof selectBookings>>[number];

function selectBookings(db: Db) {
  return db
    .select(bookingWithCar)
    .from(booking)
    .innerJoin(listing, eq(listing.id, booking.listingId))
    .$dynamic();
}

/**
 * Books a car for a buyer. Name, email and price come from the session and the car, never from
 * the request. The database's one-open-booking-per-buyer-and-car index settles races.
 */
export async function createBooking(
  db: Db,
  mailer: Mailer,
  actor: SessionUser,
  input: CreateBookingInput,
): Promise<{ id: string }> {
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
  const allowed = bookingPolicy.canBook(actor, car);
  if (!allowed.ok) throw forbidden(allowed.reason);
  if (car.status !== 'available') throw conflict('This car is no longer available for booking.');

  let id: string;
  try {
    const [row] = await db
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
      })
      .returning({ id: booking.id });
    id = row!.id;
  } catch (error) {
    if (isUniqueViolation(error, 'booking_one_open_per_buyer_listing')) {
      throw conflict('You already have an open booking for this car. See My Orders.');
    }
    throw error;
  }

  const price = formatMoney(car.repriceCents, car.currency);
  await Promise.allSettled([
    mailer.send({
      to: car.sellerEmail,
      subject: `New booking: ${car.name}`,
      text: `Hello ${car.sellerName},\n\n${actor.name} booked your ${car.name} at ${price}.\nPhone: ${input.userPhone}\nMeeting place: ${input.userLocation}\n\nThe buyer will pay through CarMarket; you will get a sale notice when they do.`,
    }),
    mailer.send({
      to: actor.email,
      subject: `You booked ${car.name}`,
      text: `Hello ${actor.name},\n\nYour booking of the ${car.name} at ${price} is in. Pay for it from My Orders to make the car yours; until then other buyers can still book it.`,
    }),
  ]);
  return { id };
}

/** The bookings of the buyer with this email, newest first. */
export async function bookingsOfEmail(db: Db, email: string): Promise<BookingRow[]> {
  return selectBookings(db)
    .innerJoin(user, eq(user.id, booking.buyerId))
    .where(eq(sql`lower(${user.email})`, email.toLowerCase()))
    .orderBy(desc(booking.createdAt));
}

export async function findBooking(db: Db, id: string): Promise<BookingRow | undefined> {
  const [row] = await selectBookings(db).where(eq(booking.id, id));
  return row;
}

/** The buyer cancels a pending booking. */
export async function cancelBooking(db: Db, actor: SessionUser, id: string): Promise<BookingRow> {
  const found = await findBooking(db, id);
  if (!found || !bookingPolicy.canView(actor, found)) throw notFound('That booking');
  if (!bookingPolicy.canCancel(actor, found))
    throw forbidden('Only the buyer can cancel a booking.');
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
    .$dynamic();
  return (sellerId ? query.where(eq(listing.sellerId, sellerId)) : query).orderBy(
    desc(booking.createdAt),
  );
}

import type { BookedItem, Booking } from '@carmarket/shared';
import type { BookingRow } from './bookings.service.ts';

export function presentBooking(row: BookingRow): Booking {
  return {
    _id: row.id,
    listingId: row.listingId,
    name: row.carName,
    img: row.carImages[0]?.thumbUrl ?? row.carImages[0]?.url ?? null,
    userName: row.buyerName,
    userEmail: row.buyerEmail,
    userPhone: row.phone,
    userLocation: row.location,
    price: row.priceCents,
    currency: row.currency,
    status: row.status,
    paid: row.status === 'paid',
    paidAt: row.paidAt?.toISOString() ?? null,
    transactionId: row.transactionId,
    sellerName: row.sellerName,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A booking of one of the seller's cars, with whether that car sold (to anyone). */
export function presentBookedItem(row: BookingRow & { sold: boolean }): BookedItem {
  return { ...presentBooking(row), sold: row.sold };
}

import type { BookedItem, Booking, Handover, Receipt } from '@carmarket/shared';
import type { BookingRow, ReceiptRow } from './bookings.service.ts';

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
    closedReason: row.status === 'closed' ? row.closedReason : null,
    handover: presentHandover(row),
    carStatus: row.carStatus,
  };
}

/**
 * A paid (or refunded) booking's hand-over and money; null for one never paid (or paid with no
 * settlement).
 */
function presentHandover(row: BookingRow): Handover | null {
  if (row.status !== 'paid' && row.status !== 'refunded') return null;
  if (!row.settlementState || !row.releaseDueAt) return null;
  return {
    state: row.settlementState,
    releaseDueAt: row.releaseDueAt.toISOString(),
    releasedAt: row.releasedAt?.toISOString() ?? null,
    releasedBy: row.releasedBy,
    refundedAt: row.refundedAt?.toISOString() ?? null,
    feeCents: row.feeCents ?? 0,
    sellerCents: row.sellerCents ?? 0,
    disputeId: row.disputeId,
  };
}

/** A booking of one of the seller's cars, with whether that car sold (to anyone). */
export function presentBookedItem(row: BookingRow & { sold: boolean }): BookedItem {
  // Added to the booking's object, not spread into a new one (see listings.presenter.ts).
  return Object.assign(presentBooking(row), { sold: row.sold });
}

/** The receipt of a paid booking: what was bought, from whom, for how much, when; a refund. */
export function presentReceipt(row: ReceiptRow): Receipt {
  return {
    bookingId: row.id,
    listingId: row.listingId,
    carName: row.carName,
    carYear: row.carYear,
    sellerName: row.sellerName,
    buyerName: row.buyerName,
    buyerEmail: row.buyerEmail,
    amount: row.priceCents,
    currency: row.currency,
    paidAt: row.paidAt.toISOString(),
    transactionId: row.transactionId,
    refundedAt: row.refundedAt?.toISOString() ?? null,
  };
}

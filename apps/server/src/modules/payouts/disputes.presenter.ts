import type { Dispute } from '@carmarket/shared';
import type { DisputeRow } from './disputes.service.ts';

/** A dispute as admins see it: the booking's car, buyer, seller and amount, and the ruling. */
export function presentDispute(row: DisputeRow): Dispute {
  return {
    _id: row.id,
    bookingId: row.bookingId,
    listingId: row.listingId,
    carName: row.carName,
    buyerName: row.buyerName,
    buyerEmail: row.buyerEmail,
    sellerName: row.sellerName,
    amount: row.priceCents,
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    outcome: row.outcome,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  };
}

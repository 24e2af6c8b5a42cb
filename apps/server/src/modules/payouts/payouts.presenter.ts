import type { Payout } from '@carmarket/shared';
import type { PayoutRow } from './balance.service.ts';

/** A payout as the seller's Payouts page shows it. */
export function presentPayout(row: PayoutRow): Payout {
  return {
    _id: row.id,
    bookingId: row.bookingId,
    carName: row.carName,
    amount: row.amountCents,
    feeCents: row.feeCents,
    currency: row.currency,
    status: row.status,
    provider: row.provider === 'stripe' ? 'stripe' : 'sandbox',
    transferId: row.transferId,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
  };
}

import { sql } from 'drizzle-orm';
import type { Balance, MoneySummary } from '@carmarket/shared';
import { queryRows } from '../../db/client.ts';
import { decodeKeysetCursor, keysetPage } from '../../lib/cursor.ts';
import type { PayoutDeps } from './payout-deps.ts';

/*
 * What the ledger and the settlements say a seller has, and what the platform holds (decision
 * 037). Sums of bigint columns come back as text: read as numbers here.
 */

type Figures = Record<string, string | number | null>;
const amount = (value: string | number | null | undefined) => Number(value ?? 0);

/**
 * A seller's balance: `pending` the share of their paid bookings still held or disputed,
 * `payable` what was released to them and not yet paid out (minus their ledger account),
 * `paidOut` their paid payouts.
 */
export async function sellerBalance(
  deps: Pick<PayoutDeps, 'db' | 'currency'>,
  sellerId: string,
): Promise<Balance> {
  const [row] = await queryRows<Figures>(
    deps.db,
    sql`select
      (select coalesce(sum(seller_cents), 0) from settlement
        where seller_id = ${sellerId} and state in ('awaiting-handover', 'disputed')) as pending,
      (select coalesce(-sum(amount_cents), 0) from ledger_entry
        where seller_id = ${sellerId} and account = 'seller') as payable,
      (select coalesce(sum(amount_cents), 0) from payout
        where seller_id = ${sellerId} and status = 'paid') as paid_out`,
  );
  return {
    pending: amount(row?.pending),
    payable: amount(row?.payable),
    paidOut: amount(row?.paid_out),
    currency: deps.currency,
  };
}

/** The platform's money figures for admins, all from the ledger but the open disputes. */
export async function moneySummary(
  deps: Pick<PayoutDeps, 'db' | 'currency'>,
): Promise<MoneySummary> {
  const [row] = await queryRows<Figures>(
    deps.db,
    sql`select
      coalesce(-sum(amount_cents) filter (where account = 'escrow'), 0) as held,
      coalesce(-sum(amount_cents) filter (where account = 'fees'), 0) as fees_earned,
      coalesce(sum(amount_cents) filter (where account = 'seller' and movement = 'payout'), 0)
        as paid_out,
      coalesce(-sum(amount_cents) filter (where account = 'seller'), 0) as owed_to_sellers,
      coalesce(sum(amount_cents) filter (where account = 'escrow' and movement = 'refund'), 0)
        as refunded,
      (select count(*) from dispute where status in ('open', 'resolving')) as open_disputes
    from ledger_entry`,
  );
  return {
    held: amount(row?.held),
    feesEarned: amount(row?.fees_earned),
    paidOut: amount(row?.paid_out),
    owedToSellers: amount(row?.owed_to_sellers),
    refunded: amount(row?.refunded),
    openDisputes: amount(row?.open_disputes),
    currency: deps.currency,
  };
}

/** One payout as read for the seller's list. */
export interface PayoutRow {
  id: string;
  bookingId: string;
  carName: string;
  amountCents: number;
  feeCents: number;
  currency: string;
  status: 'sending' | 'paid';
  provider: string;
  transferId: string | null;
  createdAt: Date;
  paidAt: Date | null;
  sortKey: string;
}

const PAYOUTS_SORT = 'payouts';
const DEFAULT_PAGE = 20;

/** A page of the seller's payouts, newest first, with the cursor of the next page. */
export async function pageOfPayouts(
  deps: Pick<PayoutDeps, 'db'>,
  sellerId: string,
  query: { limit?: number | undefined; cursor?: string | undefined },
): Promise<{ rows: PayoutRow[]; nextCursor: string | null }> {
  const limit = query.limit ?? DEFAULT_PAGE;
  const after = query.cursor
    ? decodeKeysetCursor(query.cursor, PAYOUTS_SORT, 'timestamptz')
    : undefined;
  const rows = await queryRows<Record<string, unknown>>(
    deps.db,
    sql`select p.id, p.booking_id, l.name as car_name, p.amount_cents, s.fee_cents, p.currency,
          p.status, p.provider, p.transfer_id, p.created_at, p.paid_at,
          p.created_at::text as sort_key
        from payout p
        join booking b on b.id = p.booking_id
        join listing l on l.id = b.listing_id
        join settlement s on s.booking_id = p.booking_id
        where p.seller_id = ${sellerId}
          ${after ? sql`and (p.created_at, p.id) < (cast(${after.key} as timestamptz), cast(${after.id} as uuid))` : sql``}
        order by p.created_at desc, p.id desc
        limit ${limit + 1}`,
  );
  const payouts = rows.map((row): PayoutRow => ({
    id: row.id as string,
    bookingId: row.booking_id as string,
    carName: row.car_name as string,
    amountCents: amount(row.amount_cents as string),
    feeCents: amount(row.fee_cents as string),
    currency: row.currency as string,
    status: row.status as PayoutRow['status'],
    provider: row.provider as string,
    transferId: (row.transfer_id as string | null) ?? null,
    createdAt: new Date(row.created_at as string),
    paidAt: row.paid_at ? new Date(row.paid_at as string) : null,
    sortKey: row.sort_key as string,
  }));
  return keysetPage(payouts, limit, PAYOUTS_SORT);
}

import { Readable } from 'node:stream';
import { asc, gt } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AdminExportTable } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { booking, listing, payout, user } from '../../db/schema.ts';
import { csvLine, type CsvValue } from '../../lib/csv.ts';

/** Rows read a query at a time: a page of 1,000 is ~0.3 MB of cars, whatever the table's size. */
export const EXPORT_PAGE_SIZE = 1000;

/** One column of a table's CSV: its header, the column read, and how its value is written. */
interface CsvColumn {
  header: string;
  column: AnyPgColumn;
  /** The cell of a value that is not written as it is (a list, a count). */
  cell?: (value: never) => CsvValue;
}

interface TableExport {
  /** The table's primary key: the keyset the pages are read by. */
  id: AnyPgColumn;
  columns: readonly CsvColumn[];
}

const column = <T>(header: string, read: AnyPgColumn, cell?: (value: T) => CsvValue): CsvColumn =>
  cell
    ? { header, column: read, cell: cell as (value: never) => CsvValue }
    : { header, column: read };

/**
 * What each table's CSV holds: what the admin pages show of it, never a secret (no password
 * hash, token, or payment client secret lives in these tables' chosen columns).
 */
const TABLES: Record<AdminExportTable, TableExport> = {
  users: {
    id: user.id,
    columns: [
      column('id', user.id),
      column('name', user.name),
      column('email', user.email),
      column('roles', user.roles, (roles: string[]) => roles.join(' ')),
      column('verified', user.verified),
      column('email_verified', user.emailVerified),
      column('created_at', user.createdAt),
      column('deleted_at', user.deletedAt),
    ],
  },
  cars: {
    id: listing.id,
    columns: [
      column('id', listing.id),
      column('seller_id', listing.sellerId),
      column('seller_name', listing.sellerName),
      column('name', listing.name),
      column('make', listing.make),
      column('model', listing.model),
      column('year', listing.year),
      column('mileage_km', listing.mileageKm),
      column('condition', listing.condition),
      column('location', listing.location),
      column('price_cents', listing.repriceCents),
      column('original_price_cents', listing.orpriceCents),
      column('currency', listing.currency),
      column('status', listing.status),
      column('photos', listing.images, (images: unknown[]) => images.length),
      column('description', listing.description),
      column('created_at', listing.createdAt),
    ],
  },
  bookings: {
    id: booking.id,
    columns: [
      column('id', booking.id),
      column('car_id', booking.listingId),
      column('buyer_id', booking.buyerId),
      column('buyer_name', booking.buyerName),
      column('buyer_email', booking.buyerEmail),
      column('price_cents', booking.priceCents),
      column('currency', booking.currency),
      column('status', booking.status),
      column('closed_reason', booking.closedReason),
      column('transaction_id', booking.transactionId),
      column('created_at', booking.createdAt),
      column('paid_at', booking.paidAt),
    ],
  },
  payouts: {
    id: payout.id,
    columns: [
      column('id', payout.id),
      column('booking_id', payout.bookingId),
      column('seller_id', payout.sellerId),
      column('amount_cents', payout.amountCents),
      column('currency', payout.currency),
      column('provider', payout.provider),
      column('status', payout.status),
      column('transfer_id', payout.transferId),
      column('created_at', payout.createdAt),
      column('paid_at', payout.paidAt),
    ],
  },
};

/** The rows after `last` (by the table's id, its primary key's index), at most `limit`. */
async function readPage(db: Db, spec: TableExport, last: string | null, limit: number) {
  const selection = Object.fromEntries(
    spec.columns.map((entry, index) => [`c${index}`, entry.column]),
  ) as Record<string, AnyPgColumn>;
  const rows = (await db
    .select({ id: spec.id, ...selection })
    .from(spec.id.table)
    .where(last ? gt(spec.id, last) : undefined)
    .orderBy(asc(spec.id))
    .limit(limit)) as Array<Record<string, unknown> & { id: string }>;
  return rows.map((row) => ({
    id: row.id,
    cells: spec.columns.map((entry, index) => {
      const value = row[`c${index}`];
      return entry.cell ? entry.cell(value as never) : (value as CsvValue);
    }),
  }));
}

/**
 * A table as CSV, read a page at a time by keyset (id > the last one sent) as the client takes
 * it: the stream asks for the next page only when the socket has drained the last, so memory
 * holds one page whatever the table's size (decision 042). Rows added while it runs may or may
 * not appear; each row appears once.
 */
export function tableCsv(db: Db, table: AdminExportTable, pageSize = EXPORT_PAGE_SIZE): Readable {
  const spec = TABLES[table];
  async function* lines() {
    yield csvLine(spec.columns.map((entry) => entry.header));
    let last: string | null = null;
    for (;;) {
      const rows = await readPage(db, spec, last, pageSize);
      if (rows.length === 0) return;
      // One chunk a page: a write per row would cost a call into the socket for each.
      yield rows.map((row) => csvLine(row.cells)).join('');
      if (rows.length < pageSize) return;
      last = rows.at(-1)!.id;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

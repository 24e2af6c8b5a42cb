import { Readable } from 'node:stream';
import { asc, gt } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AdminExportTable } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { booking, listing, payout, user } from '../../db/schema.ts';
import { csvLine, type CsvValue } from '../../lib/csv.ts';

/** Rows read a query at a time: a page of 1,000 is ~0.3 MB of cars, whatever the table's size. */
export const EXPORT_PAGE_SIZE = 1000;

interface TableExport {
  header: readonly string[];
  /** The rows after `after` (by id, the primary key's index), at most `limit`, as CSV cells. */
  page(
    db: Db,
    after: string | null,
    limit: number,
  ): Promise<Array<{ id: string; cells: CsvValue[] }>>;
}

const after = (column: AnyPgColumn, id: string | null) => (id ? gt(column, id) : undefined);

/**
 * What each table's CSV holds: what the admin pages show of it, never a secret (no password
 * hash, token, or payment client secret lives in these tables' chosen columns).
 */
const TABLES: Record<AdminExportTable, TableExport> = {
  users: {
    header: [
      'id',
      'name',
      'email',
      'roles',
      'verified',
      'email_verified',
      'created_at',
      'deleted_at',
    ],
    async page(db, last, limit) {
      const rows = await db
        .select({
          id: user.id,
          name: user.name,
          email: user.email,
          roles: user.roles,
          verified: user.verified,
          emailVerified: user.emailVerified,
          createdAt: user.createdAt,
          deletedAt: user.deletedAt,
        })
        .from(user)
        .where(after(user.id, last))
        .orderBy(asc(user.id))
        .limit(limit);
      return rows.map((row) => ({
        id: row.id,
        cells: [
          row.id,
          row.name,
          row.email,
          row.roles.join(' '),
          row.verified,
          row.emailVerified,
          row.createdAt,
          row.deletedAt,
        ],
      }));
    },
  },
  cars: {
    header: [
      'id',
      'seller_id',
      'seller_name',
      'name',
      'make',
      'model',
      'year',
      'mileage_km',
      'condition',
      'location',
      'price_cents',
      'original_price_cents',
      'currency',
      'status',
      'photos',
      'description',
      'created_at',
    ],
    async page(db, last, limit) {
      const rows = await db
        .select({
          id: listing.id,
          sellerId: listing.sellerId,
          sellerName: listing.sellerName,
          name: listing.name,
          make: listing.make,
          model: listing.model,
          year: listing.year,
          mileageKm: listing.mileageKm,
          condition: listing.condition,
          location: listing.location,
          repriceCents: listing.repriceCents,
          orpriceCents: listing.orpriceCents,
          currency: listing.currency,
          status: listing.status,
          images: listing.images,
          description: listing.description,
          createdAt: listing.createdAt,
        })
        .from(listing)
        .where(after(listing.id, last))
        .orderBy(asc(listing.id))
        .limit(limit);
      return rows.map((row) => ({
        id: row.id,
        cells: [
          row.id,
          row.sellerId,
          row.sellerName,
          row.name,
          row.make,
          row.model,
          row.year,
          row.mileageKm,
          row.condition,
          row.location,
          row.repriceCents,
          row.orpriceCents,
          row.currency,
          row.status,
          row.images.length,
          row.description,
          row.createdAt,
        ],
      }));
    },
  },
  bookings: {
    header: [
      'id',
      'car_id',
      'buyer_id',
      'buyer_name',
      'buyer_email',
      'price_cents',
      'currency',
      'status',
      'closed_reason',
      'transaction_id',
      'created_at',
      'paid_at',
    ],
    async page(db, last, limit) {
      const rows = await db
        .select({
          id: booking.id,
          listingId: booking.listingId,
          buyerId: booking.buyerId,
          buyerName: booking.buyerName,
          buyerEmail: booking.buyerEmail,
          priceCents: booking.priceCents,
          currency: booking.currency,
          status: booking.status,
          closedReason: booking.closedReason,
          transactionId: booking.transactionId,
          createdAt: booking.createdAt,
          paidAt: booking.paidAt,
        })
        .from(booking)
        .where(after(booking.id, last))
        .orderBy(asc(booking.id))
        .limit(limit);
      return rows.map((row) => ({
        id: row.id,
        cells: [
          row.id,
          row.listingId,
          row.buyerId,
          row.buyerName,
          row.buyerEmail,
          row.priceCents,
          row.currency,
          row.status,
          row.closedReason,
          row.transactionId,
          row.createdAt,
          row.paidAt,
        ],
      }));
    },
  },
  payouts: {
    header: [
      'id',
      'booking_id',
      'seller_id',
      'amount_cents',
      'currency',
      'provider',
      'status',
      'transfer_id',
      'created_at',
      'paid_at',
    ],
    async page(db, last, limit) {
      const rows = await db
        .select({
          id: payout.id,
          bookingId: payout.bookingId,
          sellerId: payout.sellerId,
          amountCents: payout.amountCents,
          currency: payout.currency,
          provider: payout.provider,
          status: payout.status,
          transferId: payout.transferId,
          createdAt: payout.createdAt,
          paidAt: payout.paidAt,
        })
        .from(payout)
        .where(after(payout.id, last))
        .orderBy(asc(payout.id))
        .limit(limit);
      return rows.map((row) => ({
        id: row.id,
        cells: [
          row.id,
          row.bookingId,
          row.sellerId,
          row.amountCents,
          row.currency,
          row.provider,
          row.status,
          row.transferId,
          row.createdAt,
          row.paidAt,
        ],
      }));
    },
  },
};

/**
 * A table as CSV, read a page at a time by keyset (id > the last one sent) as the client takes
 * it: the stream asks for the next page only when the socket has drained the last, so memory
 * holds one page whatever the table's size (decision 042). Rows added while it runs may or may
 * not appear; each row appears once.
 */
export function tableCsv(db: Db, table: AdminExportTable, pageSize = EXPORT_PAGE_SIZE): Readable {
  const spec = TABLES[table];
  async function* lines() {
    yield csvLine(spec.header);
    let last: string | null = null;
    for (;;) {
      const rows = await spec.page(db, last, pageSize);
      if (rows.length === 0) return;
      // One chunk a page: a write per row would cost a call into the socket for each.
      yield rows.map((row) => csvLine(row.cells)).join('');
      if (rows.length < pageSize) return;
      last = rows.at(-1)!.id;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

// Setup shared by the hand-over and dispute tests.
import { eq, sql } from 'drizzle-orm';
import type { Booking } from '@carmarket/shared';
import { queryRows } from '../../db/client.ts';
import { auditLog, ledgerEntry } from '../../db/schema.ts';
import { register, type TestClient } from '../../test/client.ts';
import { newCar, payFor } from '../../test/fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';
import { book } from '../payments/payments.test-helpers.ts';

/** A new seller of their own (no payout account), signed in. */
export const newSeller = (app: TestApp) => register(app, { role: 'Seller' });

/** A car of `seller`, booked and paid for by a new buyer, as the payment page pays. */
export async function paidBooking(
  app: TestApp,
  options: { seller?: TestClient; repriceCents?: number } = {},
) {
  const car = await newCar(app, options);
  const buyer = await book(app, car.id);
  const transactionId = await payFor(buyer, buyer.bookingId);
  return { car, buyer, bookingId: buyer.bookingId, transactionId };
}

export async function bookingOf(client: TestClient, bookingId: string): Promise<Booking> {
  const response = await client.get(`/api/booked/${bookingId}`);
  if (response.status !== 200) throw new Error(`booking: ${response.status}`);
  return (await response.json()) as Booking;
}

/** A booking's ledger entries: movement, account and amount, in a stable order. */
export async function ledgerOf(app: TestApp, bookingId: string) {
  const rows = await app.database.db
    .select({
      movement: ledgerEntry.movement,
      account: ledgerEntry.account,
      amountCents: ledgerEntry.amountCents,
    })
    .from(ledgerEntry)
    .where(eq(ledgerEntry.bookingId, bookingId));
  const order = ['charge', 'release', 'payout', 'refund'];
  return rows.sort(
    (a, b) =>
      order.indexOf(a.movement) - order.indexOf(b.movement) || a.account.localeCompare(b.account),
  );
}

/** The whole ledger's sum: zero, whatever happened. */
export async function ledgerSum(app: TestApp): Promise<number> {
  const [row] = await queryRows<{ total: string | number }>(
    app.database.db,
    sql`select coalesce(sum(amount_cents), 0) as total from ledger_entry`,
  );
  return Number(row!.total);
}

/** The audit lines of an action about a booking. */
export async function auditOf(app: TestApp, action: string, bookingId: string) {
  const rows = await app.database.db.select().from(auditLog).where(eq(auditLog.action, action));
  return rows.filter((row) => row.targetId === bookingId);
}

/** Moves a booking's hand-over days into the past, as if they had gone by. */
export async function letDaysPass(app: TestApp, bookingId: string): Promise<void> {
  await app.database.db.execute(
    sql`update settlement set release_due_at = now() - interval '1 minute' where booking_id = ${bookingId}`,
  );
}

// Setup shared by the hand-over and dispute tests.
import { eq, sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import { auditLog, ledgerEntry } from '../../db/schema.ts';
import type { TestApp } from '../../test/test-app.ts';

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

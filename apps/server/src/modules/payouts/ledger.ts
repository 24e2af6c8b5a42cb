import type { LedgerAccount, LedgerMovement } from '@carmarket/shared';
import type { Tx } from '../../db/client.ts';
import { ledgerEntry } from '../../db/schema.ts';

/** One line of a movement: an account and a signed amount (the seller's account names them). */
export interface LedgerLine {
  account: LedgerAccount;
  amountCents: number;
  sellerId?: string;
}

/**
 * Writes one movement of a booking's money as entries summing to zero (decision 037), in the
 * caller's transaction, beside the state change it records. A movement is written once per
 * booking: the second attempt writes nothing and answers false (ledger_entry_once), so a caller
 * that lost a race or replays a request moves no money twice.
 */
export async function recordMovement(
  tx: Tx,
  movement: { bookingId: string; movement: LedgerMovement; currency: string; lines: LedgerLine[] },
): Promise<boolean> {
  const sum = movement.lines.reduce((total, line) => total + line.amountCents, 0);
  if (sum !== 0 || movement.lines.length < 2) {
    throw new Error(`ledger: ${movement.movement} of ${movement.bookingId} does not balance`);
  }
  const written = await tx
    .insert(ledgerEntry)
    .values(
      movement.lines.map((line) => ({
        bookingId: movement.bookingId,
        movement: movement.movement,
        account: line.account,
        sellerId: line.sellerId ?? null,
        amountCents: line.amountCents,
        currency: movement.currency,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: ledgerEntry.id });
  if (written.length !== 0 && written.length !== movement.lines.length) {
    // Part of a movement already there means another writer did it differently: never expected.
    throw new Error(`ledger: ${movement.movement} of ${movement.bookingId} was partly written`);
  }
  return written.length > 0;
}

/**
 * The platform's fee on `priceCents`: PLATFORM_FEE_PERCENT of it, rounded up to the minor unit
 * (in the platform's favour). Percent has at most two decimals, so it is counted in basis points
 * and the arithmetic stays in whole numbers.
 */
export function platformFee(priceCents: number, feePercent: number): number {
  const basisPoints = Math.round(feePercent * 100);
  // ceil(price * bp / 10000) in whole numbers (exact below 2^53: prices up to 10^12 cents).
  return Math.floor((priceCents * basisPoints + 9_999) / 10_000);
}

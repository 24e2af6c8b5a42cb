import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { ReleasedBy } from '@carmarket/shared';
import type { Tx } from '../../db/client.ts';
import { dispute, settlement } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { notFound } from '../../lib/errors.ts';
import type { DomainEventMap } from '../../lib/events.ts';
import { allow, authorize, conflicting, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { findBooking, type BookingRow } from '../bookings/bookings.service.ts';
import { queueMail } from '../mail/mail-queue.ts';
import {
  disputeOpenedAdminMail,
  disputeOpenedMail,
  handoverConfirmedMail,
  liveAdmins,
  partiesOf,
  releasedByTimerMail,
} from './handover-mail.ts';
import { platformFee, recordMovement } from './ledger.ts';
import type { PayoutDeps } from './payout-deps.ts';
import { sendDuePayouts } from './payout.service.ts';
import { payoutPolicy } from './payouts.policy.ts';

/*
 * Where a paid booking's money is (decision 037): held from the sale, then released to the seller
 * (the buyer confirms the hand-over, the days pass, or an admin rules so) or refunded to the
 * buyer (an admin's ruling, disputes.service.ts). Every change is a conditional update of the
 * settlement with its ledger movement in one transaction, so a repeated request or a racing
 * process changes nothing twice. Lock order: the settlement's row, then its dispute's.
 */

export type SettlementRow = typeof settlement.$inferSelect;

/** Settlements released by the timer in one transaction. */
const RELEASE_BATCH = 50;
const DAY_MS = 86_400_000;

/**
 * The sale's part (`car.sold`, in the sale's transaction): the buyer's money waits for the
 * seller, less the platform's fee, until hand-over or `releaseDays` after payment.
 */
export async function settleSale(
  tx: Tx,
  sale: DomainEventMap['car.sold'],
  rules: Pick<PayoutDeps, 'feePercent' | 'releaseDays'>,
): Promise<void> {
  const feeCents = Math.min(platformFee(sale.priceCents, rules.feePercent), sale.priceCents);
  const [held] = await tx
    .insert(settlement)
    .values({
      bookingId: sale.bookingId,
      sellerId: sale.sellerId,
      priceCents: sale.priceCents,
      feeCents,
      sellerCents: sale.priceCents - feeCents,
      currency: sale.currency,
      releaseDueAt: new Date(sale.paidAt.getTime() + rules.releaseDays * DAY_MS),
    })
    .onConflictDoNothing()
    .returning({ bookingId: settlement.bookingId });
  if (!held) return;
  await recordMovement(tx, {
    bookingId: sale.bookingId,
    movement: 'charge',
    currency: sale.currency,
    lines: [
      { account: 'cash', amountCents: sale.priceCents },
      { account: 'escrow', amountCents: -sale.priceCents },
    ],
  });
}

/**
 * Releases a settlement to its seller, with the release's ledger movement: from `awaiting-handover` for the
 * buyer and the timer, from `disputed` for an admin's ruling. False when it was not in that
 * state (already released, or changed meanwhile): nothing is written.
 */
export async function release(tx: Tx, held: SettlementRow, by: ReleasedBy): Promise<boolean> {
  const [released] = await tx
    .update(settlement)
    .set({ state: 'released', releasedAt: sql`now()`, releasedBy: by })
    .where(
      and(
        eq(settlement.bookingId, held.bookingId),
        eq(settlement.state, by === 'admin' ? 'disputed' : 'awaiting-handover'),
      ),
    )
    .returning({ bookingId: settlement.bookingId });
  if (!released) return false;
  await recordMovement(tx, {
    bookingId: held.bookingId,
    movement: 'release',
    currency: held.currency,
    lines: [
      { account: 'escrow', amountCents: held.priceCents },
      { account: 'fees', amountCents: -held.feeCents },
      { account: 'seller', amountCents: -held.sellerCents, sellerId: held.sellerId },
    ],
  });
  return true;
}

/** A booking's settlement, locked for the rest of the transaction. */
export async function lockSettlement(
  tx: Tx,
  bookingId: string,
): Promise<SettlementRow | undefined> {
  const [row] = await tx
    .select()
    .from(settlement)
    .where(eq(settlement.bookingId, bookingId))
    .for('update');
  return row;
}

/**
 * Sends a released booking's payout now rather than at the next sweep. Its failure is the
 * sweep's to retry, never the request's: the release has committed.
 */
export async function payOutNow(deps: PayoutDeps, bookingId: string): Promise<void> {
  try {
    await sendDuePayouts(deps, { bookingId });
  } catch (error) {
    deps.log.error({ err: error, bookingId }, 'payout after release failed; the sweep retries');
  }
}

const NOT_PAID = {
  confirm: 'This booking is not paid: there is no hand-over to confirm.',
  dispute: 'This booking is not paid: there is nothing to report.',
};

/** The booking, for its buyer, with its settlement: else the refusal. */
async function bookingForBuyer(
  deps: PayoutDeps,
  actor: SessionUser,
  bookingId: string,
  action: 'confirm' | 'dispute',
): Promise<BookingRow> {
  const found = await findBooking(deps.db, bookingId);
  if (!found) throw notFound('That booking');
  authorize(
    payoutPolicy.canActAsBuyer(
      actor,
      found,
      action === 'confirm' ? 'confirm hand-over' : 'dispute',
    ),
  );
  // A refunded booking is answered by its settlement's state below (refunded).
  if ((found.status !== 'paid' && found.status !== 'refunded') || !found.settlementState) {
    authorize(conflicting(NOT_PAID[action]));
  }
  return found;
}

/** Whether the buyer may confirm the hand-over in this state (again, once released: harmless). */
function mayConfirm(state: SettlementRow['state']): Decision {
  if (state === 'disputed') {
    return conflicting(
      'You reported a problem with this booking: an administrator will decide where the money goes.',
    );
  }
  if (state === 'refunded') return conflicting('This booking was refunded to you.');
  return allow;
}

/** Whether the buyer may report a problem: only while the money is held and the days last. */
function mayDispute(held: SettlementRow, now: Date): Decision {
  if (held.state === 'disputed') {
    return conflicting('You already reported a problem with this booking.');
  }
  if (held.state === 'released') {
    return conflicting('The money for this booking was already released to the seller.');
  }
  if (held.state === 'refunded') return conflicting('This booking was refunded to you.');
  if (held.releaseDueAt <= now) {
    return conflicting(
      `The days to report a problem ended on ${held.releaseDueAt.toISOString().slice(0, 10)}: the money goes to the seller.`,
    );
  }
  return allow;
}

/**
 * The buyer confirms they got the car: the money is released to the seller (and sent, when the
 * seller has a payout account). Confirming again answers the booking as it is.
 */
export async function confirmHandover(
  deps: PayoutDeps,
  actor: SessionUser,
  bookingId: string,
): Promise<BookingRow> {
  await bookingForBuyer(deps, actor, bookingId, 'confirm');
  const released = await deps.db.transaction(async (tx) => {
    const held = (await lockSettlement(tx, bookingId))!;
    authorize(mayConfirm(held.state));
    if (!(await release(tx, held, 'buyer'))) return false;
    await audit(tx, {
      actorId: actor.id,
      action: 'handover.confirmed',
      targetType: 'booking',
      targetId: bookingId,
      details: { sellerCents: held.sellerCents, feeCents: held.feeCents },
    });
    const parties = (await partiesOf(tx, [bookingId])).get(bookingId)!;
    await queueMail(tx, ...handoverConfirmedMail(parties, held, deps.siteOrigin()));
    return true;
  });
  if (released) {
    deps.mail.kick();
    await payOutNow(deps, bookingId);
  }
  return (await findBooking(deps.db, bookingId))!;
}

/**
 * The buyer reports a problem while the money is held: it stays held until an admin rules. One
 * dispute per booking.
 */
export async function openDispute(
  deps: PayoutDeps,
  actor: SessionUser,
  bookingId: string,
  reason: string,
): Promise<BookingRow> {
  await bookingForBuyer(deps, actor, bookingId, 'dispute');
  try {
    await deps.db.transaction(async (tx) => {
      const held = (await lockSettlement(tx, bookingId))!;
      authorize(mayDispute(held, new Date()));
      await tx
        .update(settlement)
        .set({ state: 'disputed' })
        .where(and(eq(settlement.bookingId, bookingId), eq(settlement.state, 'awaiting-handover')));
      const [opened] = await tx
        .insert(dispute)
        .values({ bookingId, buyerId: actor.id, reason })
        .returning({ id: dispute.id });
      await audit(tx, {
        actorId: actor.id,
        action: 'dispute.opened',
        targetType: 'booking',
        targetId: bookingId,
        details: { disputeId: opened!.id },
      });
      const parties = (await partiesOf(tx, [bookingId])).get(bookingId)!;
      // Admins hear of it only from the dispute that was created: a repeated report is refused above.
      const toAdmins = disputeOpenedAdminMail(
        await liveAdmins(tx),
        parties,
        { bookingId, reason, priceCents: held.priceCents, currency: held.currency },
        deps.siteOrigin(),
      );
      await queueMail(tx, ...disputeOpenedMail(parties, reason), ...toAdmins);
    });
  } catch (error) {
    // The settlement's lock orders reports of one booking; the index is the last line.
    if (isUniqueViolation(error, 'dispute_booking_unique')) {
      authorize(conflicting('You already reported a problem with this booking.'));
    }
    throw error;
  }
  deps.mail.kick();
  return (await findBooking(deps.db, bookingId))!;
}

/**
 * Releases to their sellers the bookings awaiting hand-over whose hand-over days have passed (the timer):
 * claimed with SKIP LOCKED, a batch a transaction, so any number of processes may run it at
 * once. Both sides are mailed. Answers how many were released.
 */
export async function releaseDueSettlements(deps: PayoutDeps): Promise<number> {
  let released = 0;
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(settlement)
        .where(
          and(eq(settlement.state, 'awaiting-handover'), lte(settlement.releaseDueAt, sql`now()`)),
        )
        .orderBy(asc(settlement.releaseDueAt))
        .limit(RELEASE_BATCH)
        .for('update', { skipLocked: true });
      const parties = await partiesOf(
        tx,
        due.map((row) => row.bookingId),
      );
      let count = 0;
      for (const held of due) {
        if (!(await release(tx, held, 'timer'))) continue;
        count += 1;
        await audit(tx, {
          actorId: null,
          action: 'handover.released',
          targetType: 'booking',
          targetId: held.bookingId,
          details: { sellerCents: held.sellerCents, feeCents: held.feeCents },
        });
        await queueMail(
          tx,
          ...releasedByTimerMail(parties.get(held.bookingId)!, held, deps.siteOrigin()),
        );
      }
      return { claimed: due.length, count };
    });
    released += batch.count;
    if (batch.count > 0) deps.mail.kick();
    if (batch.claimed < RELEASE_BATCH) return released;
  }
}

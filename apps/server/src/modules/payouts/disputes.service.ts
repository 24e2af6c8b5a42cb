import { and, asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import {
  DISPUTE_STATUSES,
  SEARCH_PAGE_SIZE,
  type DisputeCounts,
  type DisputeStatus,
  type ResolveDisputeInput,
} from '@carmarket/shared';
import type { Db, Tx } from '../../db/client.ts';
import { booking, dispute, listing, payment, settlement } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { decodeKeysetCursor, isSortKey, keysetPage } from '../../lib/cursor.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { countOutcome } from '../../lib/metrics.ts';
import { authorize } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { refundSale } from '../listings/lifecycle.ts';
import { queueMail } from '../mail/mail-queue.ts';
import { disputeResolvedMail, partiesOf } from './handover-mail.ts';
import { recordMovement } from './ledger.ts';
import type { PayoutDeps } from './payout-deps.ts';
import { payoutPolicy } from './payouts.policy.ts';
import { lockSettlement, payOutNow, release, type SettlementRow } from './settlement.service.ts';

/*
 * Admins' rulings on buyers' disputes (decision 037). A release is one transaction. A refund asks
 * the provider, so it goes in two phases: the ruling is claimed (open -> resolving) and
 * committed, the card is refunded (idempotent at the provider), then the refund is recorded
 * (settlement refunded, its ledger movement, dispute resolved). A crash between the phases
 * leaves the dispute `resolving`; the same ruling again, or the payout sweep, finishes it.
 * Lock order, as everywhere in payouts: the settlement's row, then the dispute's.
 */

const disputeWithBooking = {
  ...getTableColumns(dispute),
  listingId: booking.listingId,
  carName: listing.name,
  buyerName: booking.buyerName,
  buyerEmail: booking.buyerEmail,
  sellerName: listing.sellerName,
  priceCents: booking.priceCents,
  currency: booking.currency,
};

function selectDisputes(db: Db | Tx) {
  return db
    .select(disputeWithBooking)
    .from(dispute)
    .innerJoin(booking, eq(booking.id, dispute.bookingId))
    .innerJoin(listing, eq(listing.id, booking.listingId))
    .$dynamic();
}

export type DisputeRow = NonNullable<Awaited<ReturnType<typeof findDispute>>>;

export async function findDispute(db: Db | Tx, id: string) {
  const [row] = await selectDisputes(db).where(eq(dispute.id, id));
  return row;
}

/** Open disputes first, then those being carried out, then decided ones; oldest first in each. */
const statusRank = sql<number>`(case ${dispute.status} when 'open' then 0 when 'resolving' then 1 else 2 end)`;
const CURSOR_SORT = 'disputes';
/** The cursor's key: the status's rank and the creation time as the database printed it. */
const CURSOR_KEY = /^([0-2])\|(.+)$/;
const isCursorKey = (key: string) => {
  const parts = CURSOR_KEY.exec(key);
  return parts !== null && isSortKey('timestamptz', parts[2]!);
};

/** A page of disputes (of one status, when asked), in the order above. */
export async function listDisputes(
  db: Db,
  query: { status?: DisputeStatus; limit?: number; cursor?: string },
) {
  const limit = query.limit ?? SEARCH_PAGE_SIZE;
  let after: SQL | undefined;
  if (query.cursor) {
    const cursor = decodeKeysetCursor(query.cursor, CURSOR_SORT, isCursorKey);
    const key = CURSOR_KEY.exec(cursor.key)!;
    after = sql`(${statusRank}, ${dispute.createdAt}, ${dispute.id}) > (${Number(key[1])}, cast(${key[2]} as timestamptz), cast(${cursor.id} as uuid))`;
  }
  const rows = await db
    .select({
      ...disputeWithBooking,
      sortKey: sql<string>`${statusRank}::text || '|' || ${dispute.createdAt}::text`,
    })
    .from(dispute)
    .innerJoin(booking, eq(booking.id, dispute.bookingId))
    .innerJoin(listing, eq(listing.id, booking.listingId))
    .where(and(query.status ? eq(dispute.status, query.status) : undefined, after))
    .orderBy(statusRank, asc(dispute.createdAt), asc(dispute.id))
    .limit(limit + 1);
  return keysetPage(rows, limit, CURSOR_SORT);
}

/** How many disputes each status holds (the Disputes page's tabs). */
export async function countDisputes(db: Db): Promise<DisputeCounts> {
  const rows = await db
    .select({ status: dispute.status, count: sql<number>`count(*)::int` })
    .from(dispute)
    .groupBy(dispute.status);
  const counts = Object.fromEntries(DISPUTE_STATUSES.map((status) => [status, 0]));
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts as DisputeCounts;
}

const OUTCOME_WORDS = { release: 'released to the seller', refund: 'refunded to the buyer' };

/**
 * An admin's ruling: the money is released to the seller, or refunded to the buyer's card. The
 * same ruling again answers the dispute as it is (finishing a refund a crash left half done); a
 * different one once it is decided is refused.
 */
export async function resolveDispute(
  deps: PayoutDeps,
  actor: SessionUser,
  disputeId: string,
  ruling: ResolveDisputeInput,
): Promise<DisputeRow> {
  authorize(payoutPolicy.canRuleOnDisputes(actor));
  const found = await findDispute(deps.db, disputeId);
  if (!found) throw notFound('That dispute');

  const step = await deps.db.transaction(async (tx) => {
    const held = (await lockSettlement(tx, found.bookingId))!;
    const [current] = await tx
      .select()
      .from(dispute)
      .where(eq(dispute.id, disputeId))
      .for('update');
    if (current!.status !== 'open') {
      if (current!.outcome !== ruling.outcome) {
        throw conflict(`This dispute was already decided: ${OUTCOME_WORDS[current!.outcome!]}.`);
      }
      return current!.status === 'resolving' ? 'refund' : 'done';
    }
    if (ruling.outcome === 'refund') {
      await tx
        .update(dispute)
        .set({ status: 'resolving', outcome: 'refund', note: ruling.note, resolvedBy: actor.id })
        .where(eq(dispute.id, disputeId));
      return 'refund';
    }
    // The settlement is no longer disputed (moved on meanwhile): nothing is written.
    if (!(await release(tx, held, 'admin'))) {
      throw conflict('This booking’s money is no longer in dispute: nothing was released.');
    }
    await tx
      .update(dispute)
      .set({
        status: 'resolved',
        outcome: 'release',
        note: ruling.note,
        resolvedBy: actor.id,
        resolvedAt: sql`now()`,
      })
      .where(eq(dispute.id, disputeId));
    await recordRuling(
      tx,
      deps,
      held,
      { ...current!, outcome: 'release', note: ruling.note },
      actor.id,
    );
    return 'released';
  });

  if (step === 'released') {
    deps.mail.kick();
    await payOutNow(deps, found.bookingId);
  } else if (step === 'refund') {
    try {
      await finishRefund(deps, disputeId);
    } catch (error) {
      // The ruling stands (resolving): the sweep asks the provider again.
      deps.log.error({ err: error, disputeId }, 'refund of a disputed booking failed; retried');
    }
  }
  return (await findDispute(deps.db, disputeId))!;
}

/** The audit line and both sides' mail of a ruling carried out, in its transaction. */
async function recordRuling(
  tx: Tx,
  deps: PayoutDeps,
  held: SettlementRow,
  ruled: { id: string; bookingId: string; outcome: 'release' | 'refund'; note: string | null },
  actorId: string | null,
) {
  const note = ruled.note ?? '';
  await audit(tx, {
    actorId,
    action: 'dispute.resolved',
    targetType: 'booking',
    targetId: ruled.bookingId,
    details: { disputeId: ruled.id, outcome: ruled.outcome, note, amountCents: held.priceCents },
  });
  const parties = (await partiesOf(tx, [ruled.bookingId])).get(ruled.bookingId)!;
  await queueMail(
    tx,
    ...disputeResolvedMail(parties, held, { outcome: ruled.outcome, note }, deps.siteOrigin()),
  );
}

/**
 * The second phase of a refund ruling: the card is refunded (the provider's idempotency key
 * makes asking twice refunding once), then the refund is recorded. Nothing when the dispute is
 * not `resolving` (finished meanwhile by another process).
 */
async function finishRefund(deps: PayoutDeps, disputeId: string): Promise<boolean> {
  const [claimed] = await deps.db
    .select({
      status: dispute.status,
      bookingId: dispute.bookingId,
      listingId: booking.listingId,
      transactionId: booking.transactionId,
    })
    .from(dispute)
    .innerJoin(booking, eq(booking.id, dispute.bookingId))
    .where(eq(dispute.id, disputeId));
  if (claimed?.status !== 'resolving' || !claimed.transactionId) return false;
  const { bookingId, listingId, transactionId: intentId } = claimed;
  try {
    await countOutcome(
      deps.metrics.refunds,
      () => deps.gateway.refund(intentId),
      () => 'refunded',
    );
  } catch (error) {
    // Touched, so the sweep tries the others first and this one again only after a while.
    await deps.db
      .update(dispute)
      .set({ updatedAt: sql`now()` })
      .where(and(eq(dispute.id, disputeId), eq(dispute.status, 'resolving')));
    throw error;
  }

  const finished = await deps.db.transaction(async (tx) => {
    const held = (await lockSettlement(tx, bookingId))!;
    const [current] = await tx
      .select()
      .from(dispute)
      .where(eq(dispute.id, disputeId))
      .for('update');
    if (current!.status !== 'resolving') return false;
    const [refunded] = await tx
      .update(settlement)
      .set({ state: 'refunded', refundedAt: sql`now()` })
      .where(and(eq(settlement.bookingId, bookingId), eq(settlement.state, 'disputed')))
      .returning({ bookingId: settlement.bookingId });
    if (refunded) {
      await recordMovement(tx, {
        bookingId,
        movement: 'refund',
        currency: held.currency,
        lines: [
          { account: 'escrow', amountCents: held.priceCents },
          { account: 'cash', amountCents: -held.priceCents },
        ],
      });
      // The sale is undone: the booking is refunded, the car back with its seller (decision 044).
      await refundSale(tx, { carId: listingId, bookingId });
    }
    // The charge is no longer the platform's: the payments' own record says so too.
    await tx
      .update(payment)
      .set({ status: 'refunded' })
      .where(
        and(eq(payment.provider, deps.gateway.provider), eq(payment.providerPaymentId, intentId)),
      );
    await tx
      .update(dispute)
      .set({ status: 'resolved', resolvedAt: sql`now()` })
      .where(eq(dispute.id, disputeId));
    await recordRuling(tx, deps, held, { ...current!, outcome: 'refund' }, current!.resolvedBy);
    return true;
  });
  if (finished) deps.mail.kick();
  return finished;
}

/** Disputes finished a sweep. */
const FINISH_BATCH = 50;
/**
 * A `resolving` dispute touched more recently than this (claimed by a ruling whose refund may
 * be in flight, or whose refund just failed) is left alone: longer than Stripe's slowest answer.
 */
const RESOLVING_LEASE = sql`interval '2 minutes'`;

/**
 * Finishes the refund rulings a crash or a provider's failure left `resolving` (the payout
 * sweep), those untouched longest first; a refund that failed waits out the lease, so one that
 * keeps failing neither spins nor blocks the others. Safe to run from any process at once: each
 * step is idempotent. Answers how many.
 */
export async function finishResolvingDisputes(deps: PayoutDeps): Promise<number> {
  const resolving = await deps.db
    .select({ id: dispute.id })
    .from(dispute)
    .where(
      and(eq(dispute.status, 'resolving'), sql`${dispute.updatedAt} < now() - ${RESOLVING_LEASE}`),
    )
    .orderBy(asc(dispute.updatedAt))
    .limit(FINISH_BATCH);
  let finished = 0;
  for (const { id } of resolving) {
    try {
      if (await finishRefund(deps, id)) finished += 1;
    } catch (error) {
      deps.log.error(
        { err: error, disputeId: id },
        'refund of a disputed booking failed; tried again after its lease',
      );
    }
  }
  return finished;
}

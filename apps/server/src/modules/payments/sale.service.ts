import { and, eq } from 'drizzle-orm';
import { formatMoney } from '@carmarket/shared';
import { payment } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { countOutcome, refusedOrFailed } from '../../lib/metrics.ts';
import { liveHold, lockCarAndBooking, sellCar } from '../listings/lifecycle.ts';
import type { GatewayIntent } from '../../adapters/payment-gateway.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { mailRefund, mailSale, saleMoneyOf, type SaleMoney } from './payment-mail.ts';

export type RecordOutcome =
  | { result: 'paid'; bookingId: string; transactionId: string; paidAt: Date }
  | { result: 'refunded'; bookingId: string; transactionId: string };

type Reconciled =
  | { state: 'recorded'; outcome: RecordOutcome }
  | { state: 'open'; intent: GatewayIntent }
  | { state: 'closed' };

/**
 * Asks the processor about a payment we have not heard the end of, and acts on its answer: a
 * success is recorded (a sale, or a refund when the car can no longer be sold); an intent that
 * can no longer be paid is marked so; with `cancel`, one still open is canceled first. Safe to
 * run from any process, any number of times.
 */
export async function reconcile(
  deps: PaymentDeps,
  providerPaymentId: string,
  { cancel }: { cancel: boolean },
): Promise<Reconciled> {
  const { db, gateway } = deps;
  let intent = await gateway.retrieveIntent(providerPaymentId);
  if (cancel && intent && intent.status !== 'succeeded' && intent.status !== 'canceled') {
    await gateway.cancelIntent(providerPaymentId);
    // The buyer may have paid between our question and the cancel: ask again.
    intent = await gateway.retrieveIntent(providerPaymentId);
  }
  if (intent?.status === 'succeeded' && intent.bookingId) {
    return { state: 'recorded', outcome: await recordSuccess(deps, intent, null) };
  }
  if (intent && intent.status !== 'canceled') return { state: 'open', intent };
  await db
    .update(payment)
    .set({ status: 'canceled' })
    .where(
      and(
        eq(payment.provider, gateway.provider),
        eq(payment.providerPaymentId, providerPaymentId),
        eq(payment.status, 'requires_payment'),
      ),
    );
  return { state: 'closed' };
}

/**
 * The effects of a sale, in one transaction: payment succeeded, booking paid, car sold, other
 * open bookings closed. A success for a car that can no longer be sold to this buyer is refunded.
 */
export async function recordSuccess(
  deps: PaymentDeps,
  intent: GatewayIntent,
  actorId: string | null,
): Promise<RecordOutcome> {
  let already = false;
  return countOutcome(
    deps.metrics.payments,
    () =>
      recordOnce(deps, intent, actorId, () => {
        already = true;
      }),
    (outcome) => (already ? 'already' : outcome.result),
    refusedOrFailed,
  );
}

async function recordOnce(
  deps: PaymentDeps,
  intent: GatewayIntent,
  actorId: string | null,
  wasAlready: () => void,
): Promise<RecordOutcome> {
  const { db, gateway, mailer } = deps;
  if (!intent.bookingId)
    throw new AppError(400, 'validation-failed', 'The payment names no booking.');
  const bookingId = intent.bookingId;

  type Decision =
    | { kind: 'already'; outcome: RecordOutcome }
    | {
        kind: 'paid';
        paidAt: Date;
        closed: Array<{ buyerEmail: string; buyerName: string }>;
        carName: string;
        price: string;
        buyer: { email: string; name: string };
        money: SaleMoney;
      }
    | { kind: 'refund'; reason: string; buyer: { email: string; name: string }; carName: string };

  const decide = () =>
    db.transaction(async (tx): Promise<Decision> => {
      const row = await lockCarAndBooking(tx, bookingId);
      if (!row) throw notFound('That booking');
      const { booking: held, car } = row;
      const buyer = { email: held.buyerEmail, name: held.buyerName };
      if (intent.amountCents !== held.priceCents || intent.currency !== held.currency) {
        throw new AppError(
          400,
          'validation-failed',
          'The payment amount does not match the booking.',
          { field: 'transactionId' },
        );
      }
      // The payment row may be missing if the intent was made by another process that died.
      await tx
        .insert(payment)
        .values({
          bookingId,
          provider: gateway.provider,
          providerPaymentId: intent.id,
          amountCents: intent.amountCents,
          currency: intent.currency,
          status: 'succeeded',
        })
        .onConflictDoNothing();
      const [pay] = await tx
        .select()
        .from(payment)
        .where(
          and(eq(payment.provider, gateway.provider), eq(payment.providerPaymentId, intent.id)),
        )
        .for('update');
      if (held.status === 'paid' && held.transactionId === intent.id) {
        return {
          kind: 'already',
          outcome: { result: 'paid', bookingId, transactionId: intent.id, paidAt: held.paidAt! },
        };
      }
      if (pay?.status === 'refunded') {
        return {
          kind: 'already',
          outcome: { result: 'refunded', bookingId, transactionId: intent.id },
        };
      }
      await tx.update(payment).set({ status: 'succeeded' }).where(eq(payment.id, pay!.id));

      const now = new Date();
      const hold = liveHold(car, now);
      const heldByOther = hold !== null && hold.bookingId !== held.id;
      const sellable =
        held.status === 'pending' &&
        (car.status === 'available' || (car.status === 'reserved' && !heldByOther));
      if (!sellable) {
        const reason =
          held.status !== 'pending'
            ? `the booking was ${held.status}`
            : `the car is ${heldByOther ? 'being bought by someone else' : car.status}`;
        return { kind: 'refund', reason, buyer, carName: car.name };
      }
      const sale = await sellCar(tx, deps.events, {
        carId: car.id,
        bookingId: held.id,
        transactionId: intent.id,
        paidAt: now,
      });
      // The database's one-paid-booking-per-car rule: the last line.
      if (!sale.sold) {
        return {
          kind: 'refund',
          reason: 'the car was sold to someone else',
          buyer,
          carName: car.name,
        };
      }
      const { closed } = sale;
      await audit(tx, {
        actorId,
        action: 'sale',
        targetType: 'listing',
        targetId: car.id,
        details: {
          bookingId,
          transactionId: intent.id,
          amountCents: intent.amountCents,
          currency: intent.currency,
          buyerEmail: held.buyerEmail,
        },
      });
      return {
        kind: 'paid',
        paidAt: now,
        closed,
        carName: car.name,
        price: formatMoney(held.priceCents, held.currency),
        buyer,
        // Read here, not after the commit: the answer never waits on (or fails by) a read then.
        money: await saleMoneyOf(tx, bookingId, car.sellerId),
      };
    });

  let decision: Decision;
  try {
    decision = await decide();
  } catch (error) {
    // Two confirmations racing on PostgreSQL: the loser's transaction fails; the winner decided.
    if (isUniqueViolation(error)) decision = await decide();
    else throw error;
  }

  if (decision.kind === 'already') {
    wasAlready();
    return decision.outcome;
  }
  if (decision.kind === 'refund') {
    await refundPayment(deps, intent.id, bookingId, decision.reason);
    await mailRefund(mailer, decision);
    return { result: 'refunded', bookingId, transactionId: intent.id };
  }

  await mailSale(deps, { ...decision, transactionId: intent.id });
  return { result: 'paid', bookingId, transactionId: intent.id, paidAt: decision.paidAt };
}

export async function refundPayment(
  deps: PaymentDeps,
  intentId: string,
  bookingId: string,
  reason: string,
) {
  await countOutcome(
    deps.metrics.refunds,
    () => deps.gateway.refund(intentId),
    () => 'refunded',
  );
  await deps.db.transaction(async (tx) => {
    await tx
      .update(payment)
      .set({ status: 'refunded' })
      .where(
        and(eq(payment.provider, deps.gateway.provider), eq(payment.providerPaymentId, intentId)),
      );
    await audit(tx, {
      actorId: null,
      action: 'payment.refunded',
      targetType: 'booking',
      targetId: bookingId,
      details: { intentId, reason },
    });
  });
}

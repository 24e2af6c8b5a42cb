import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { formatMoney } from '@carmarket/shared';
import type { Db, Tx } from '../../db/client.ts';
import { booking, listing, payment, processedEvent, user } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { Mailer } from '../../plugins/mail.ts';
import { closeOpenBookings, notifyClosed, releaseHolds } from '../listings/seller.service.ts';
import type { GatewayEvent, GatewayIntent, PaymentGateway } from './gateway.ts';

export interface PaymentDeps {
  db: Db;
  gateway: PaymentGateway;
  mailer: Mailer;
  holdMinutes: number;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * Locks the car, then the booking, always in that order: every payment step for a car queues on
 * the car's row, and closing its other bookings cannot deadlock with a buyer waiting in line.
 */
async function lockBookingAndCar(tx: Tx, bookingId: string) {
  const [target] = await tx
    .select({ listingId: booking.listingId })
    .from(booking)
    .where(eq(booking.id, bookingId));
  if (!target) return undefined;
  const [car] = await tx
    .select()
    .from(listing)
    .where(eq(listing.id, target.listingId))
    .for('update');
  const [held] = await tx.select().from(booking).where(eq(booking.id, bookingId)).for('update');
  return car && held ? { booking: held, car } : undefined;
}

/**
 * Starts paying for a booking: puts a hold on the car (one buyer at a time, for
 * `holdMinutes`) and answers a client secret for the card form. The amount is the booking's.
 */
export async function startPayment(deps: PaymentDeps, actor: SessionUser, bookingId: string) {
  const { db, gateway, holdMinutes } = deps;
  const held = await db.transaction(async (tx) => {
    const row = await lockBookingAndCar(tx, bookingId);
    if (!row || row.booking.buyerId !== actor.id) {
      if (row && actor.role === 'admin') throw forbidden('Only the buyer can pay for a booking.');
      throw notFound('That booking');
    }
    const { booking: held, car } = row;
    if (held.status === 'paid') throw conflict('This booking is already paid.');
    if (held.status !== 'pending')
      throw conflict(`This booking is ${held.status} and can no longer be paid.`);
    const now = new Date();
    const holdActive =
      car.status === 'reserved' && car.holdExpiresAt !== null && car.holdExpiresAt > now;
    if (holdActive && car.holdBookingId !== held.id) {
      const retryAfterSeconds = Math.ceil((car.holdExpiresAt!.getTime() - now.getTime()) / 1000);
      throw new AppError(
        409,
        'conflict',
        `Another buyer is paying for this car. If they do not finish, it frees up within ${Math.ceil(retryAfterSeconds / 60)} minutes.`,
        { retryAfterSeconds },
      );
    }
    if (car.status !== 'available' && car.status !== 'reserved') {
      throw conflict(`This car is ${car.status} and can no longer be bought.`);
    }
    const [{ attempts } = { attempts: 0 }] = await tx
      .select({ attempts: sql<number>`count(*)::int` })
      .from(payment)
      .where(eq(payment.bookingId, held.id));
    const open = await tx
      .select({ providerPaymentId: payment.providerPaymentId })
      .from(payment)
      .where(
        and(
          eq(payment.bookingId, held.id),
          eq(payment.provider, gateway.provider),
          eq(payment.status, 'requires_payment'),
        ),
      )
      .orderBy(desc(payment.createdAt));
    await tx
      .update(listing)
      .set({
        status: 'reserved',
        holdBookingId: held.id,
        holdExpiresAt: new Date(now.getTime() + holdMinutes * 60_000),
      })
      .where(eq(listing.id, car.id));
    return { booking: held, open, attempt: attempts + 1 };
  });

  // Intents already open for this booking: one may have been paid while we did not hear of it
  // (a crash between the charge and our record), so ask the processor before charging again.
  // Otherwise the newest one still open is used again (a reload of the payment page).
  let reusable: GatewayIntent | undefined;
  for (const { providerPaymentId } of held.open) {
    const found = await reconcile(deps, providerPaymentId, { cancel: false });
    if (found.state === 'recorded') {
      throw conflict(
        found.outcome.result === 'paid'
          ? 'This booking is already paid.'
          : 'The car could no longer be sold to you, so your payment was refunded in full.',
      );
    }
    if (
      found.state === 'open' &&
      !reusable &&
      found.intent.amountCents === held.booking.priceCents
    ) {
      reusable = found.intent;
    }
  }
  if (reusable) {
    return {
      clientSecret: reusable.clientSecret,
      amount: reusable.amountCents,
      currency: reusable.currency,
      intentId: reusable.id,
    };
  }
  const intent = await gateway.createIntent({
    amountCents: held.booking.priceCents,
    currency: held.booking.currency,
    bookingId: held.booking.id,
    idempotencyKey: `booking-${held.booking.id}-attempt-${held.attempt}`,
  });
  await db
    .insert(payment)
    .values({
      bookingId: held.booking.id,
      provider: gateway.provider,
      providerPaymentId: intent.id,
      amountCents: intent.amountCents,
      currency: intent.currency,
      attempt: held.attempt,
    })
    .onConflictDoNothing();
  return {
    clientSecret: intent.clientSecret,
    amount: intent.amountCents,
    currency: intent.currency,
    intentId: intent.id,
  };
}

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
async function reconcile(
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

export type RecordOutcome =
  | { result: 'paid'; bookingId: string; transactionId: string; paidAt: Date }
  | { result: 'refunded'; bookingId: string; transactionId: string };

/**
 * `POST /api/payments`: records a payment only when the processor says that intent succeeded,
 * for this booking and its amount. Safe to call any number of times.
 */
export async function confirmPayment(
  deps: PaymentDeps,
  actor: SessionUser,
  bookingId: string,
  transactionId: string,
) {
  const [owned] = await deps.db
    .select({ buyerId: booking.buyerId })
    .from(booking)
    .where(eq(booking.id, bookingId));
  if (!owned || owned.buyerId !== actor.id) throw notFound('That booking');
  const intent = await deps.gateway.retrieveIntent(transactionId);
  if (!intent || intent.bookingId !== bookingId) {
    throw new AppError(
      400,
      'validation-failed',
      'That transaction does not belong to this booking.',
      { field: 'transactionId' },
    );
  }
  if (intent.status !== 'succeeded') {
    throw new AppError(
      409,
      'conflict',
      `The payment has not gone through (it is ${intent.status.replaceAll('_', ' ')}).`,
      {
        field: 'transactionId',
      },
    );
  }
  return recordSuccess(deps, intent, actor.id);
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
        sellerId: string;
      }
    | { kind: 'refund'; reason: string; buyer: { email: string; name: string }; carName: string };

  const decide = () =>
    db.transaction(async (tx): Promise<Decision> => {
      const row = await lockBookingAndCar(tx, bookingId);
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
      const heldByOther =
        car.status === 'reserved' &&
        car.holdBookingId !== held.id &&
        car.holdExpiresAt !== null &&
        car.holdExpiresAt > now;
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
      try {
        await tx
          .update(booking)
          .set({ status: 'paid', paidAt: now, transactionId: intent.id })
          .where(eq(booking.id, held.id));
      } catch (error) {
        // The database's one-paid-booking-per-car rule: the last line.
        if (isUniqueViolation(error, 'booking_one_paid_per_listing')) {
          return {
            kind: 'refund',
            reason: 'the car was sold to someone else',
            buyer,
            carName: car.name,
          };
        }
        throw error;
      }
      await tx
        .update(listing)
        .set({ status: 'sold', holdBookingId: null, holdExpiresAt: null, advertisedAt: null })
        .where(eq(listing.id, car.id));
      const closed = await closeOpenBookings(tx, car.id);
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
        sellerId: car.sellerId,
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

  if (decision.kind === 'already') return decision.outcome;
  if (decision.kind === 'refund') {
    await refundPayment(deps, intent.id, bookingId, decision.reason);
    await mailer
      .send({
        to: decision.buyer.email,
        subject: `Your payment for ${decision.carName} was refunded`,
        text: `Hello ${decision.buyer.name},\n\nYour payment for the ${decision.carName} went through, but ${decision.reason}, so we refunded it in full. It may take a few days to show on your statement.`,
      })
      .catch(() => {});
    return { result: 'refunded', bookingId, transactionId: intent.id };
  }

  const [seller] = await db
    .select({ email: user.email, name: user.name })
    .from(user)
    .where(eq(user.id, decision.sellerId));
  await Promise.allSettled([
    mailer.send({
      to: decision.buyer.email,
      subject: `Receipt: ${decision.carName}`,
      text: `Hello ${decision.buyer.name},\n\nThank you for your payment of ${decision.price} for the ${decision.carName}.\nTransaction: ${intent.id}\nDate: ${decision.paidAt.toISOString()}\n\nThe seller has been told and will be in touch to hand over the car.`,
    }),
    seller &&
      mailer.send({
        to: seller.email,
        subject: `Sold: ${decision.carName}`,
        text: `Hello ${seller.name},\n\n${decision.buyer.name} paid ${decision.price} for your ${decision.carName} (transaction ${intent.id}). Please arrange the handover with them (${decision.buyer.email}).`,
      }),
    notifyClosed(mailer, decision.carName, decision.closed, 'another buyer bought it'),
  ]);
  return { result: 'paid', bookingId, transactionId: intent.id, paidAt: decision.paidAt };
}

async function refundPayment(
  deps: PaymentDeps,
  intentId: string,
  bookingId: string,
  reason: string,
) {
  await deps.gateway.refund(intentId);
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

/** A failed or canceled payment frees the car it held. */
async function releaseHold(
  deps: PaymentDeps,
  intent: GatewayIntent,
  status: 'failed' | 'canceled',
) {
  if (!intent.bookingId) return;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(payment)
      .set({ status })
      .where(
        and(
          eq(payment.provider, deps.gateway.provider),
          eq(payment.providerPaymentId, intent.id),
          eq(payment.status, 'requires_payment'),
        ),
      );
    await releaseHolds(tx, [intent.bookingId!]);
  });
}

/** A webhook event, handled once per provider event id. */
export async function handleEvent(
  deps: PaymentDeps,
  event: GatewayEvent,
): Promise<'handled' | 'duplicate' | 'ignored'> {
  const { db, gateway } = deps;
  const [seen] = await db
    .select({ id: processedEvent.eventId })
    .from(processedEvent)
    .where(
      and(eq(processedEvent.provider, gateway.provider), eq(processedEvent.eventId, event.id)),
    );
  if (seen) return 'duplicate';

  let outcome: 'handled' | 'ignored' = 'handled';
  if (event.intent && event.type === 'payment_intent.succeeded') {
    // Trust nothing in the payload beyond the id: ask the processor.
    const intent = await gateway.retrieveIntent(event.intent.id);
    if (intent?.status === 'succeeded' && intent.bookingId) await recordSuccess(deps, intent, null);
  } else if (event.intent && event.type === 'payment_intent.payment_failed') {
    await releaseHold(deps, event.intent, 'failed');
  } else if (event.intent && event.type === 'payment_intent.canceled') {
    await releaseHold(deps, event.intent, 'canceled');
  } else {
    outcome = 'ignored';
  }
  const inserted = await db
    .insert(processedEvent)
    .values({ provider: gateway.provider, eventId: event.id })
    .onConflictDoNothing()
    .returning({ id: processedEvent.eventId });
  return inserted.length > 0 ? outcome : 'duplicate';
}

/**
 * Settles what a crash or a lost webhook left open, then frees cars whose hold lapsed:
 * 1. every open payment no live hold covers is asked about at the processor: a success is
 *    recorded (sale or refund), anything else is canceled there, so it can no longer charge;
 * 2. lapsed holds are freed (one conditional statement);
 * 3. succeeded payments that no paid booking uses are refunded (a refund that failed before).
 * Every step is idempotent, so any number of processes may run it at once.
 */
export async function sweepPayments(
  deps: PaymentDeps,
): Promise<{ released: number; refunded: number; reconciled: number }> {
  const { db, gateway } = deps;
  const unguarded = await db
    .select({ providerPaymentId: payment.providerPaymentId })
    .from(payment)
    .innerJoin(booking, eq(booking.id, payment.bookingId))
    .innerJoin(listing, eq(listing.id, booking.listingId))
    .where(
      and(
        eq(payment.status, 'requires_payment'),
        eq(payment.provider, gateway.provider),
        sql`not (${listing.status} = 'reserved' and ${listing.holdBookingId} = ${payment.bookingId} and ${listing.holdExpiresAt} > now())`,
      ),
    );
  let reconciled = 0;
  for (const { providerPaymentId } of unguarded) {
    try {
      if ((await reconcile(deps, providerPaymentId, { cancel: true })).state !== 'open') {
        reconciled += 1;
      }
    } catch (error) {
      deps.log.error({ err: error, providerPaymentId }, 'could not settle an open payment');
    }
  }

  const released = await db
    .update(listing)
    .set({ status: 'available', holdBookingId: null, holdExpiresAt: null })
    .where(and(eq(listing.status, 'reserved'), lt(listing.holdExpiresAt, new Date())))
    .returning({ id: listing.id });

  // A succeeded payment whose booking is not paid by it must be refunded (a refund that failed).
  const stranded = await db
    .select({ providerPaymentId: payment.providerPaymentId, bookingId: payment.bookingId })
    .from(payment)
    .innerJoin(booking, eq(booking.id, payment.bookingId))
    .where(
      and(
        eq(payment.status, 'succeeded'),
        eq(payment.provider, gateway.provider),
        lt(payment.updatedAt, new Date(Date.now() - 60_000)),
        sql`(${booking.status} <> 'paid' or ${booking.transactionId} is distinct from ${payment.providerPaymentId})`,
      ),
    );
  let refunded = 0;
  for (const item of stranded) {
    try {
      await refundPayment(
        deps,
        item.providerPaymentId,
        item.bookingId,
        'the car could no longer be sold',
      );
      refunded += 1;
    } catch (error) {
      deps.log.error({ err: error }, 'refund retry failed');
    }
  }
  return { released: released.length, refunded, reconciled };
}

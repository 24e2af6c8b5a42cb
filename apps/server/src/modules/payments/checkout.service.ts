import { and, desc, eq, sql } from 'drizzle-orm';
import { booking, payment } from '../../db/schema.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { holdCar, lockCarAndBooking } from '../listings/lifecycle.ts';
import type { GatewayIntent } from './gateway.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { paymentPolicy } from './payments.policy.ts';
import { reconcile, recordSuccess } from './sale.service.ts';

/**
 * Starts paying for a booking: puts a hold on the car (one buyer at a time, for
 * `holdMinutes`) and answers a client secret for the card form. The amount is the booking's.
 */
export async function startPayment(deps: PaymentDeps, actor: SessionUser, bookingId: string) {
  const { db, gateway, holdMinutes } = deps;
  const held = await db.transaction(async (tx) => {
    const row = await lockCarAndBooking(tx, bookingId);
    if (!row) throw notFound('That booking');
    const allowed = paymentPolicy.canPay(actor, row.booking);
    if (!allowed.ok) throw allowed.hidden ? notFound('That booking') : forbidden(allowed.reason);
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
    await holdCar(tx, car.id, held.id, new Date(now.getTime() + holdMinutes * 60_000));
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
  // Recording answers 404 to everyone but the buyer, admins included (as it always has).
  if (!owned || !paymentPolicy.canPay(actor, owned).ok) throw notFound('That booking');
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

import { and, desc, eq, sql } from 'drizzle-orm';
import { booking, listing, payment } from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { countOutcome, refusedOrFailed } from '../../lib/metrics.ts';
import { authorize } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { Tx } from '../../db/client.ts';
import {
  holdCar,
  liveHold,
  lockAddressHolds,
  lockBuyerHolds,
  lockCarAndBooking,
  otherCarHeldBy,
} from '../listings/lifecycle.ts';
import type { GatewayIntent } from '../../adapters/payment-gateway.ts';
import { checkHoldLimits } from './hold-limits.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { paymentPolicy } from './payments.policy.ts';
import { reconcile, recordSuccess } from './sale.service.ts';

/** Why another buyer's hold stops this one, and when to try again. */
function heldByAnother(holdExpiresAt: Date, now: Date): AppError {
  const retryAfterSeconds = Math.ceil((holdExpiresAt.getTime() - now.getTime()) / 1000);
  return new AppError(
    409,
    'conflict',
    `Another buyer is paying for this car. If they do not finish, it frees up within ${Math.ceil(retryAfterSeconds / 60)} minutes.`,
    { retryAfterSeconds, reservedUntil: holdExpiresAt.toISOString() },
  );
}

/** The booking and its car, locked, when `actor` may pay for it now; throws why not otherwise. */
async function lockPayable(tx: Tx, actor: SessionUser, bookingId: string, now: Date) {
  const row = await lockCarAndBooking(tx, bookingId);
  if (!row) throw notFound('That booking');
  authorize(paymentPolicy.canPay(actor, { ...row.booking, sellerId: row.car.sellerId }));
  const { booking: held, car } = row;
  if (held.status === 'paid') throw conflict('This booking is already paid.');
  if (held.status !== 'pending')
    throw conflict(`This booking is ${held.status} and can no longer be paid.`);
  const hold = liveHold(car, now);
  if (hold && hold.bookingId !== held.id) throw heldByAnother(hold.until, now);
  if (car.status !== 'available' && car.status !== 'reserved') {
    throw conflict(`This car is ${car.status} and can no longer be bought.`);
  }
  return { booking: held, car, hold };
}

/**
 * Starts paying for a booking (the payment page opening): answers a client secret for the card
 * form, for the booking's amount. It holds nothing: the car is held when the card form is sent
 * (holdForPayment), so that viewing the page never keeps a car from other buyers.
 */
export async function startPayment(deps: PaymentDeps, actor: SessionUser, bookingId: string) {
  const { db, gateway } = deps;
  const held = await db.transaction(async (tx) => {
    const { booking: held } = await lockPayable(tx, actor, bookingId, new Date());
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
 * `POST /api/payments/hold`: the buyer sends the card form, so the car is held for them for
 * `holdMinutes` while the processor confirms the card. One car per buyer at a time; asking again
 * for the same booking answers the same hold, never a longer one, so a declined card is tried
 * again within it. It needs the payment started (an open payment intent), is refused past the
 * hold limits (hold-limits.ts), and it lapses, or is freed when the booking is cancelled or the
 * payment canceled.
 */
export async function holdForPayment(
  deps: PaymentDeps,
  actor: SessionUser,
  asked: { bookingId: string; ip: string; browser: string },
) {
  const { bookingId, ip, browser } = asked;
  const { db, gateway, holdMinutes } = deps;
  let same = false;
  const takeHold = () =>
    db.transaction(async (tx) => {
      await lockBuyerHolds(tx, actor.id);
      await lockAddressHolds(tx, ip);
      const now = new Date();
      const { booking: held, car, hold } = await lockPayable(tx, actor, bookingId, now);
      if (hold) {
        same = true;
        return { reservedUntil: hold.until };
      }
      const other = await otherCarHeldBy(tx, actor.id, held.id);
      if (other) {
        throw new AppError(
          409,
          'conflict',
          `You are already paying for the ${other.name}. Finish or cancel that payment first.`,
          {
            retryAfterSeconds: Math.ceil((other.holdExpiresAt.getTime() - now.getTime()) / 1000),
          },
        );
      }
      await checkHoldLimits(tx, {
        buyerId: actor.id,
        car,
        ip,
        browser,
        now,
        holdMinutes,
        limits: deps.holdLimits,
      });
      const started = await tx
        .update(payment)
        .set({ heldAt: now })
        .where(
          and(
            eq(payment.bookingId, held.id),
            eq(payment.provider, gateway.provider),
            eq(payment.status, 'requires_payment'),
          ),
        )
        .returning({ id: payment.id });
      if (started.length === 0) {
        throw conflict('Open the payment page again: this payment has not been started.');
      }
      const until = new Date(now.getTime() + holdMinutes * 60_000);
      await holdCar(tx, {
        carId: car.id,
        bookingId: held.id,
        buyerId: actor.id,
        ip,
        browser,
        until,
      });
      return { reservedUntil: until };
    });
  return countOutcome(
    deps.metrics.holds,
    takeHold,
    () => (same ? 'same' : 'held'),
    refusedOrFailed,
  );
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
    .select({ buyerId: booking.buyerId, sellerId: listing.sellerId })
    .from(booking)
    .innerJoin(listing, eq(listing.id, booking.listingId))
    .where(eq(booking.id, bookingId));
  if (!owned) throw notFound('That booking');
  authorize(paymentPolicy.canPay(actor, owned));
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

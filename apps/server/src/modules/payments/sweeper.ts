import { and, eq, lt, not, sql } from 'drizzle-orm';
import { booking, carHold, listing, payment } from '../../db/schema.ts';
import { liveHoldWhere, releaseLapsedHolds } from '../listings/lifecycle.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { reconcile, refundPayment } from './sale.service.ts';

/**
 * Settles what a crash or a lost webhook left open, then frees cars whose hold lapsed:
 * 1. every open payment whose hold is gone (or whose booking closed, or whose card form was never
 *    sent, after an hour) is asked about at the processor: a success is recorded (sale or refund), anything else is
 *    canceled there, so it can no longer charge;
 * 2. lapsed holds are freed (one conditional statement), and records of holds older than the
 *    hold limits look back are deleted;
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
        not(and(liveHoldWhere(sql`now()`), eq(listing.holdBookingId, payment.bookingId))!),
        // Held once (the card form was sent), its booking no longer payable (cancelled, closed),
        // or left unsent for an hour (a page left open).
        sql`(${payment.heldAt} is not null or ${booking.status} <> 'pending' or ${payment.createdAt} < now() - interval '1 hour')`,
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

  const released = await releaseLapsedHolds(db);
  // The hold limits look back a day at most (hold-limits.ts): older records are not needed.
  await db.delete(carHold).where(lt(carHold.heldAt, new Date(Date.now() - 2 * 86_400_000)));

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
  return { released, refunded, reconciled };
}

import { and, eq } from 'drizzle-orm';
import { payment, processedEvent } from '../../db/schema.ts';
import { releaseHolds } from '../listings/lifecycle.ts';
import type { GatewayEvent, GatewayIntent } from '../../adapters/payment-gateway.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { recordSuccess } from './sale.service.ts';

/** A canceled payment can no longer be paid: it frees the car it held. */
async function releaseHold(deps: PaymentDeps, intent: GatewayIntent) {
  if (!intent.bookingId) return;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(payment)
      .set({ status: 'canceled' })
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
  } else if (event.intent && event.type === 'payment_intent.canceled') {
    await releaseHold(deps, event.intent);
  } else {
    // A declined card (payment_intent.payment_failed) leaves the intent open for another card,
    // and the car held for its buyer until the hold ends: freeing it would let a bad card renew
    // a hold (issue 29), and the buyer could no longer try again without waiting.
    outcome = 'ignored';
  }
  const inserted = await db
    .insert(processedEvent)
    .values({ provider: gateway.provider, eventId: event.id })
    .onConflictDoNothing()
    .returning({ id: processedEvent.eventId });
  return inserted.length > 0 ? outcome : 'duplicate';
}

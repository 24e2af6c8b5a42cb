import type { PaymentIntentResult, RecordPaymentResult } from '@carmarket/shared';
import type { RecordOutcome } from './sale.service.ts';

/** What the card form needs: the intent's client secret and the amount it will charge. */
export function presentIntent(intent: {
  clientSecret: string;
  amount: number;
  currency: string;
}): PaymentIntentResult {
  return { clientSecret: intent.clientSecret, amount: intent.amount, currency: intent.currency };
}

/** A recorded payment, with the spec's `acknowledged`/`insertedId` beside our own fields. */
export function presentRecorded(
  outcome: Extract<RecordOutcome, { result: 'paid' }>,
): RecordPaymentResult {
  return {
    acknowledged: true,
    insertedId: outcome.transactionId,
    bookingId: outcome.bookingId,
    transactionId: outcome.transactionId,
    paidAt: outcome.paidAt.toISOString(),
  };
}

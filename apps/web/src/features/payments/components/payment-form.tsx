import { useId, useState, type FormEvent, type ReactNode } from 'react';

import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { billingGaps, payBlocker, type PaymentGaps } from './payment-gaps';

export interface Billing {
  name: string;
  email: string;
}

/**
 * What both card forms share: the billing name and email, the Pay button and the card error
 * below it, or why it cannot pay yet. The processor's own part (`cardFields`) and `confirm`
 * differ per processor.
 */
export function PaymentForm({
  cardFields,
  cardGaps,
  ready,
  amount,
  defaultBilling,
  hold,
  confirm,
  onSucceeded,
  onCardError,
  onHoldRefused,
  children,
}: {
  cardFields: ReactNode;
  /** What the card fields still need (nothing when they are complete). */
  cardGaps: PaymentGaps;
  /** The payment intent (and the processor's script) are ready. */
  ready: boolean;
  /** The formatted amount, for the Pay button. */
  amount: string;
  defaultBilling: Billing;
  /** Holds the car for this buyer before the card is confirmed; throws why it cannot. */
  hold: () => Promise<unknown>;
  /** Confirms the card payment; answers the transaction id, or throws with the card error. */
  confirm: (billing: Billing) => Promise<string>;
  onSucceeded: (transactionId: string) => Promise<void>;
  onCardError?: () => void;
  /** The car could not be held (nothing was charged); `error` says why. */
  onHoldRefused?: (error: unknown) => void;
  /** Above the fields, e.g. the sandbox's test cards. */
  children?: ReactNode;
}) {
  const [billing, setBilling] = useState(defaultBilling);
  const [processing, setProcessing] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const blockerId = useId();
  const blocker =
    payBlocker(cardGaps, billingGaps(billing)) ??
    (ready ? null : 'The card form is still loading.');
  const canPay = !blocker && !processing;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canPay) return;
    setProcessing(true);
    setCardError(null);
    try {
      await hold();
    } catch (error) {
      // Nothing was charged: say why (another buyer is paying, or this one pays for another car).
      setCardError(errorMessage(error));
      setProcessing(false);
      onHoldRefused?.(error);
      return;
    }
    let transactionId: string;
    try {
      transactionId = await confirm({ name: billing.name.trim(), email: billing.email.trim() });
    } catch (error) {
      setCardError(error instanceof Error && error.message ? error.message : errorMessage(error));
      setProcessing(false);
      onCardError?.();
      return;
    }
    // The page takes over from here (it records the payment and shows the outcome).
    await onSucceeded(transactionId);
    setProcessing(false);
  }

  return (
    <form noValidate className="form-stack" onSubmit={(event) => void handleSubmit(event)}>
      {children}
      {cardFields}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Name on card">
          {(control) => (
            <input
              {...control}
              value={billing.name}
              onChange={(event) => setBilling({ ...billing, name: event.target.value })}
              autoComplete="cc-name"
              required
              className="input w-full"
            />
          )}
        </Field>
        <Field label="Email for the receipt">
          {(control) => (
            <input
              {...control}
              type="email"
              value={billing.email}
              onChange={(event) => setBilling({ ...billing, email: event.target.value })}
              autoComplete="email"
              required
              className="input w-full"
            />
          )}
        </Field>
      </div>
      <div>
        {/* aria-disabled rather than disabled: the button keeps focus while the card is sent. */}
        <button
          type="submit"
          className="button button-primary button-lg w-full"
          aria-disabled={!canPay || undefined}
          aria-describedby={blocker && !processing ? blockerId : undefined}
          aria-busy={processing || undefined}
        >
          {processing && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {processing ? 'Processing…' : `Pay ${amount}`}
        </button>
        {blocker && !processing && (
          <p id={blockerId} className="mt-2 text-sm leading-6 text-muted">
            {blocker}
          </p>
        )}
        {cardError && (
          <p role="alert" className="mt-3 font-semibold text-error">
            {cardError}
          </p>
        )}
      </div>
    </form>
  );
}

import { useId, useState, type ChangeEvent } from 'react';

import { Field } from '../../../components/ui/field';
import { confirmSandboxPayment } from '../api/confirm-sandbox-payment';
import {
  caretAfterDigits,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  cardGaps,
  parseExpiry,
} from './card-input';
import { PaymentForm, type Billing } from './payment-form';

type PaymentFormProps = Parameters<typeof PaymentForm>[0];

/** The built-in sandbox processor: plain card fields, confirmed through our own API. */
export function SandboxPaymentForm({
  clientSecret,
  ...props
}: Omit<PaymentFormProps, 'cardFields' | 'cardGaps' | 'confirm' | 'ready' | 'children'> & {
  clientSecret: string | undefined;
}) {
  const [card, setCard] = useState({ number: '', expiry: '', cvc: '' });
  const hintId = useId();

  function handleNumberChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const caret = input.selectionStart ?? input.value.length;
    const digitsBefore = input.value.slice(0, caret).replace(/\D/g, '').length;
    const number = formatCardNumber(input.value);
    setCard((current) => ({ ...current, number }));
    // Spaces come and go as digits are typed; keep the caret after the same digit.
    requestAnimationFrame(() => {
      if (document.activeElement !== input) return;
      const position = caretAfterDigits(number, digitsBefore);
      input.setSelectionRange(position, position);
    });
  }

  async function confirm(billing: Billing): Promise<string> {
    const expiry = parseExpiry(card.expiry);
    if (!clientSecret || !expiry) throw new Error('Fill in the card details first.');
    const { paymentIntent } = await confirmSandboxPayment({
      clientSecret,
      card: { number: card.number.replace(/\D/g, ''), cvc: card.cvc, ...expiry },
      billingDetails: billing,
    });
    return paymentIntent.id;
  }

  const cardFields = (
    <fieldset className="grid gap-5 sm:grid-cols-6" aria-describedby={hintId}>
      <legend className="sr-only">Card</legend>
      <p
        id={hintId}
        className="rounded-box border border-info/30 bg-info/10 px-4 py-3 text-sm leading-6 sm:col-span-6"
      >
        <strong>Sandbox:</strong> use 4242 4242 4242 4242, any future date, any CVC. No real money
        moves.
      </p>
      <div className="sm:col-span-6">
        <Field label="Card number">
          {(control) => (
            <input
              {...control}
              value={card.number}
              onChange={handleNumberChange}
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 1234 1234 1234"
              className="input w-full font-mono tracking-wide"
            />
          )}
        </Field>
      </div>
      <div className="sm:col-span-3">
        <Field label="Expiry (MM/YY)">
          {(control) => (
            <input
              {...control}
              value={card.expiry}
              onChange={(event) =>
                setCard((current) => ({ ...current, expiry: formatExpiry(event.target.value) }))
              }
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              className="input w-full font-mono"
            />
          )}
        </Field>
      </div>
      <div className="sm:col-span-3">
        <Field label="CVC">
          {(control) => (
            <input
              {...control}
              value={card.cvc}
              onChange={(event) =>
                setCard((current) => ({ ...current, cvc: formatCvc(event.target.value) }))
              }
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="123"
              className="input w-full font-mono"
            />
          )}
        </Field>
      </div>
    </fieldset>
  );

  return (
    <PaymentForm
      {...props}
      cardFields={cardFields}
      cardGaps={cardGaps(card)}
      ready={!!clientSecret}
      confirm={confirm}
    />
  );
}

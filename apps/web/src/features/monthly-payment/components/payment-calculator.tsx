// A visitor browsing signed out has only index.css: the fields' styles come with this chunk.
import '../../../app-pages.css';

import { formatMoney } from '@carmarket/shared';
import { useEffect, useId, useRef, useState } from 'react';

import { Field } from '../../../components/ui/field';
import {
  APR_PERCENT,
  checkPaymentFields,
  keepChoice,
  monthlyPayment,
  readChoice,
  TERM_MONTHS,
  type PaymentFields,
} from '../payment';

const storage = () => {
  try {
    return localStorage;
  } catch {
    return null;
  }
};

/** The amount as the field shows it: "2,500", or "2,500.50". */
const amountText = (cents: number) =>
  new Intl.NumberFormat('en-US', {
    minimumFractionDigits: cents % 100 ? 2 : 0,
    maximumFractionDigits: 2,
  }).format(cents / 100);

/** The fields the person's last choice gives for this car: its deposit share of this price. */
function startingFields(priceCents: number): PaymentFields {
  const choice = readChoice(storage());
  // A round figure, as a person would put down: a $3,000 deposit on an $18,500 car (16.2%)
  // starts an $86,900 car at 14,100, not 14,092 (to the nearest hundred).
  const depositCents = Math.round((priceCents * choice.depositPercent) / 100 / 10_000) * 10_000;
  return {
    deposit: amountText(Math.min(depositCents, priceCents - 100)),
    term: String(choice.termMonths),
    apr: String(choice.aprPercent),
  };
}

/** A screen reader hears the monthly payment once typing pauses, not at each keystroke. */
const ANNOUNCE_AFTER_MS = 500;

/**
 * The car page's monthly payment estimate (its own chunk, loaded as it comes near view): deposit,
 * term and APR, checked as typed; the person's choice is kept in this browser for the next car.
 */
export default function PaymentCalculator({
  priceCents,
  currency,
}: {
  priceCents: number;
  currency: string;
}) {
  const titleId = useId();
  const [fields, setFields] = useState(() => startingFields(priceCents));
  const checked = checkPaymentFields(fields, priceCents);
  const payment = checked.ok ? monthlyPayment({ priceCents, ...checked }) : null;
  const errors = checked.ok ? {} : checked.errors;
  const money = (cents: number) => formatMoney(cents, currency, { precision: 'exact' });
  // The totals in whole units, the monthly payment to the cent: one way for each, always.
  const wholeMoney = (cents: number) => formatMoney(cents, currency, { precision: 'whole' });
  const [announcement, setAnnouncement] = useState('');
  const announceTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(announceTimer.current), []);

  // Each right choice is kept at once, for the next car (its deposit as a share of the price).
  const change = (name: keyof PaymentFields) => (event: { target: { value: string } }) => {
    const next = { ...fields, [name]: event.target.value };
    setFields(next);
    const right = checkPaymentFields(next, priceCents);
    clearTimeout(announceTimer.current);
    announceTimer.current = setTimeout(
      () =>
        setAnnouncement(
          right.ok
            ? `Monthly payment ${money(monthlyPayment({ priceCents, ...right }).monthlyCents)}`
            : '',
        ),
      ANNOUNCE_AFTER_MS,
    );
    if (right.ok)
      keepChoice(storage(), {
        depositPercent: (right.depositCents / priceCents) * 100,
        termMonths: right.termMonths,
        aprPercent: right.aprPercent,
      });
  };

  const figures = payment
    ? [
        {
          label: 'Monthly payment',
          testId: 'monthly-payment',
          className: 'text-2xl font-extrabold text-primary',
          text: money(payment.monthlyCents),
        },
        {
          label: 'Total cost',
          testId: 'total-cost',
          className: 'font-semibold',
          text: wholeMoney(payment.totalCents),
        },
        {
          label: 'Total interest',
          testId: 'total-interest',
          className: 'font-semibold',
          text: wholeMoney(payment.interestCents),
        },
      ]
    : [];

  return (
    <section
      aria-labelledby={titleId}
      className="rounded-box border border-base-300 p-5"
      data-testid="payment-calculator"
    >
      <h2 id={titleId} className="text-xl font-bold">
        Monthly payment estimate
      </h2>
      <p className="mt-1 text-sm text-muted">
        An estimate for your own sums, not an offer of credit: a lender’s rate and fees decide the
        real figures.
      </p>
      <form className="mt-4 grid grid-cols-2 gap-4" onSubmit={(event) => event.preventDefault()}>
        {/* The deposit a line of its own: three fields abreast leave the labels no room. */}
        <div className="col-span-2">
          <Field label={`Deposit (${currency})`} error={errors.deposit}>
            {(control) => (
              <input
                {...control}
                className="input w-full"
                inputMode="decimal"
                autoComplete="off"
                value={fields.deposit}
                onChange={change('deposit')}
              />
            )}
          </Field>
        </div>
        <Field label="Term (months)" error={errors.term}>
          {(control) => (
            <input
              {...control}
              className="input w-full"
              type="number"
              inputMode="numeric"
              min={TERM_MONTHS.min}
              max={TERM_MONTHS.max}
              value={fields.term}
              onChange={change('term')}
            />
          )}
        </Field>
        <Field label="APR (%)" error={errors.apr}>
          {(control) => (
            <input
              {...control}
              className="input w-full"
              type="number"
              inputMode="decimal"
              min={APR_PERCENT.min}
              max={APR_PERCENT.max}
              step="any"
              value={fields.apr}
              onChange={change('apr')}
            />
          )}
        </Field>
      </form>
      {/* Only the monthly payment is spoken, after typing pauses; the figures below are read on demand. */}
      <p role="status" className="sr-only" data-testid="payment-announcement">
        {announcement}
      </p>
      <div className="mt-5">
        {payment ? (
          // Wrapping with a gap, never squeezed into three columns: "$1,706.56" ran into
          // "$96,007" in the car page's narrow column at 1280 px.
          <dl className="flex flex-wrap items-end gap-x-8 gap-y-3">
            {figures.map((figure) => (
              <div key={figure.testId}>
                <dt className="text-sm text-muted">{figure.label}</dt>
                <dd className={figure.className} data-testid={figure.testId}>
                  {figure.text}
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="text-sm text-muted">Correct the fields above to see the monthly payment.</p>
        )}
        {payment && (
          <p className="mt-2 text-sm text-muted">
            Total cost is the deposit and {fields.term.trim()} monthly payments.
          </p>
        )}
      </div>
    </section>
  );
}

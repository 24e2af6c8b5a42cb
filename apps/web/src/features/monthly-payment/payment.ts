/**
 * A car loan's monthly payment (issue 32): the standard amortisation formula, money in whole
 * cents. An estimate for the person's own sums, not an offer of credit.
 */

export interface PaymentChoice {
  /** The deposit as a share of the price, 0-100. */
  depositPercent: number;
  /** Months to repay over. */
  termMonths: number;
  /** Annual percentage rate, e.g. 7.9. */
  aprPercent: number;
}

/** What the calculator starts from before the person chose anything. */
export const DEFAULT_CHOICE: PaymentChoice = {
  depositPercent: 10,
  termMonths: 60,
  aprPercent: 7.9,
};

export const TERM_MONTHS = { min: 6, max: 120 } as const;
export const APR_PERCENT = { min: 0, max: 50 } as const;

export interface Payment {
  /** What is borrowed: the price less the deposit. */
  loanCents: number;
  /** Each month's payment, rounded to the cent. */
  monthlyCents: number;
  /** The deposit and every payment together (the last one settling the rounding). */
  totalCents: number;
  /** What the payments add above the loan. */
  interestCents: number;
}

/**
 * The monthly payment on `priceCents - depositCents` over `termMonths` at `aprPercent`:
 * P·r / (1 − (1 + r)^−n) with r the monthly rate; P / n when the rate is 0.
 */
export function monthlyPayment({
  priceCents,
  depositCents,
  termMonths,
  aprPercent,
}: {
  priceCents: number;
  depositCents: number;
  termMonths: number;
  aprPercent: number;
}): Payment {
  const loanCents = priceCents - depositCents;
  const rate = aprPercent / 100 / 12;
  const exact =
    rate === 0 ? loanCents / termMonths : (loanCents * rate) / (1 - (1 + rate) ** -termMonths);
  const monthlyCents = Math.round(exact);
  // A lender settles the cents lost to rounding in the last payment, so the payments never
  // repay less than the loan: at 0% APR the interest is 0 and the total is the price. Rounding
  // the payment up instead would show a few cents of interest on a 0% loan, which no one pays.
  const interestCents = Math.max(monthlyCents * termMonths - loanCents, 0);
  return {
    loanCents,
    monthlyCents,
    totalCents: depositCents + loanCents + interestCents,
    interestCents,
  };
}

/** What the person typed, before it is checked. */
export interface PaymentFields {
  deposit: string;
  term: string;
  apr: string;
}

export type PaymentErrors = Partial<Record<keyof PaymentFields, string>>;

/** "2,500", "2500.5", "$2,500.00" -> cents; null when it is not an amount. */
export function parseAmountCents(text: string): number | null {
  const plain = text.replace(/[\s,]/g, '').replace(/^[^\d.-]+/, '');
  if (!/^\d+(\.\d{1,2})?$/.test(plain) && !/^\.\d{1,2}$/.test(plain)) return null;
  const [whole = '0', fraction = ''] = plain.split('.');
  return Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * The fields checked against the car's price: the inputs of `monthlyPayment` when all are
 * right, else a message for each field that is not.
 */
export function checkPaymentFields(
  fields: PaymentFields,
  priceCents: number,
):
  | { ok: true; depositCents: number; termMonths: number; aprPercent: number }
  | { ok: false; errors: PaymentErrors } {
  const errors: PaymentErrors = {};
  const depositCents = parseAmountCents(fields.deposit);
  if (fields.deposit.trim() === '') errors.deposit = 'Enter a deposit, or 0 for none.';
  else if (depositCents === null) errors.deposit = 'Enter the deposit as an amount, e.g. 2500.';
  else if (depositCents >= priceCents)
    errors.deposit = 'The deposit must be less than the price of the car.';

  const termMonths = Number(fields.term);
  if (fields.term.trim() === '' || !Number.isInteger(termMonths))
    errors.term = 'Enter the term as a whole number of months.';
  else if (termMonths < TERM_MONTHS.min || termMonths > TERM_MONTHS.max)
    errors.term = `The term must be from ${TERM_MONTHS.min} to ${TERM_MONTHS.max} months.`;

  const aprPercent = Number(fields.apr);
  if (fields.apr.trim() === '' || !Number.isFinite(aprPercent))
    errors.apr = 'Enter the APR as a number, e.g. 7.9.';
  else if (aprPercent < APR_PERCENT.min || aprPercent > APR_PERCENT.max)
    errors.apr = `The APR must be from ${APR_PERCENT.min}% to ${APR_PERCENT.max}%.`;

  if (Object.keys(errors).length || depositCents === null) return { ok: false, errors };
  return { ok: true, depositCents, termMonths, aprPercent };
}

const CHOICE_KEY = 'payment-estimate';

/** The person's last choice in this browser, used again on the next car; the defaults else. */
export function readChoice(storage: Pick<Storage, 'getItem'> | null): PaymentChoice {
  try {
    const kept = JSON.parse(storage?.getItem(CHOICE_KEY) ?? 'null') as Partial<PaymentChoice>;
    const number = (value: unknown, fallback: number) =>
      typeof value === 'number' && Number.isFinite(value) ? value : fallback;
    return {
      depositPercent: Math.min(
        Math.max(number(kept?.depositPercent, DEFAULT_CHOICE.depositPercent), 0),
        99,
      ),
      termMonths: number(kept?.termMonths, DEFAULT_CHOICE.termMonths),
      aprPercent: number(kept?.aprPercent, DEFAULT_CHOICE.aprPercent),
    };
  } catch {
    return DEFAULT_CHOICE;
  }
}

export function keepChoice(storage: Pick<Storage, 'setItem'> | null, choice: PaymentChoice) {
  try {
    storage?.setItem(CHOICE_KEY, JSON.stringify(choice));
  } catch {
    // Full or refused: the next car starts from the defaults.
  }
}

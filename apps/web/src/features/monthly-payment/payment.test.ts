import { describe, expect, it } from 'vitest';

import {
  checkPaymentFields,
  DEFAULT_CHOICE,
  keepChoice,
  monthlyPayment,
  parseAmountCents,
  readChoice,
} from './payment';

describe('monthly payment', () => {
  it('is 386.66 a month on 20,000 at 6% APR over 60 months', () => {
    const payment = monthlyPayment({
      priceCents: 2_000_000,
      depositCents: 0,
      termMonths: 60,
      aprPercent: 6,
    });
    expect(payment).toEqual({
      loanCents: 2_000_000,
      monthlyCents: 38_666,
      totalCents: 38_666 * 60,
      interestCents: 38_666 * 60 - 2_000_000,
    });
  });

  it('borrows the price less the deposit, and counts the deposit in the total', () => {
    // 25,000 less 5,000 = 20,000 borrowed, as above.
    const payment = monthlyPayment({
      priceCents: 2_500_000,
      depositCents: 500_000,
      termMonths: 60,
      aprPercent: 6,
    });
    expect(payment.monthlyCents).toBe(38_666);
    expect(payment.totalCents).toBe(500_000 + 38_666 * 60);
    expect(payment.interestCents).toBe(319_960);
  });

  it('at 0% APR is the loan shared over the months, with no interest', () => {
    expect(
      monthlyPayment({ priceCents: 1_200_000, depositCents: 0, termMonths: 48, aprPercent: 0 }),
    ).toEqual({
      loanCents: 1_200_000,
      monthlyCents: 25_000,
      totalCents: 1_200_000,
      interestCents: 0,
    });
  });

  it('at 0% APR never shows negative interest when the months do not divide the loan', () => {
    // 10,000 over 7 months is 1,428.571...: seven payments of 1,428.57 fall a cent short, which
    // the last payment makes up; the person pays the loan and no interest.
    expect(
      monthlyPayment({ priceCents: 1_000_000, depositCents: 0, termMonths: 7, aprPercent: 0 }),
    ).toEqual({
      loanCents: 1_000_000,
      monthlyCents: 142_857,
      totalCents: 1_000_000,
      interestCents: 0,
    });
  });

  it('matches other known values: 10,000 at 12% over 12 months is 888.49', () => {
    expect(
      monthlyPayment({ priceCents: 1_000_000, depositCents: 0, termMonths: 12, aprPercent: 12 })
        .monthlyCents,
    ).toBe(88_849);
  });
});

describe('the calculator’s fields', () => {
  const ok = { deposit: '2,000', term: '60', apr: '7.9' };

  it('reads amounts as people type them', () => {
    expect(parseAmountCents('2,500')).toBe(250_000);
    expect(parseAmountCents('$2,500.5')).toBe(250_050);
    expect(parseAmountCents('0')).toBe(0);
    expect(parseAmountCents('2.555')).toBeNull();
    expect(parseAmountCents('-5')).toBeNull();
    expect(parseAmountCents('ten')).toBeNull();
  });

  it('takes right fields', () => {
    expect(checkPaymentFields(ok, 2_000_000)).toEqual({
      ok: true,
      depositCents: 200_000,
      termMonths: 60,
      aprPercent: 7.9,
    });
  });

  it('refuses a deposit of the price or more, and says so on the field', () => {
    expect(checkPaymentFields({ ...ok, deposit: '20,000' }, 2_000_000)).toEqual({
      ok: false,
      errors: { deposit: 'The deposit must be less than the price of the car.' },
    });
    expect(checkPaymentFields({ ...ok, deposit: '19,999.99' }, 2_000_000).ok).toBe(true);
  });

  it('refuses an APR or a term out of range, and words that are not numbers', () => {
    const refused = checkPaymentFields({ deposit: 'x', term: '6.5', apr: '51' }, 2_000_000);
    expect(refused).toEqual({
      ok: false,
      errors: {
        deposit: 'Enter the deposit as an amount, e.g. 2500.',
        term: 'Enter the term as a whole number of months.',
        apr: 'The APR must be from 0% to 50%.',
      },
    });
    expect(checkPaymentFields({ ...ok, apr: '-1' }, 2_000_000).ok).toBe(false);
    expect(checkPaymentFields({ ...ok, apr: '0' }, 2_000_000).ok).toBe(true);
    expect(checkPaymentFields({ ...ok, term: '121' }, 2_000_000).ok).toBe(false);
    expect(checkPaymentFields({ ...ok, term: '' }, 2_000_000).ok).toBe(false);
  });
});

describe('the person’s choice', () => {
  it('is kept and read back; the defaults when there is none or it is damaged', () => {
    const items = new Map<string, string>();
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
    };
    expect(readChoice(storage)).toEqual(DEFAULT_CHOICE);
    keepChoice(storage, { depositPercent: 25, termMonths: 36, aprPercent: 4.5 });
    expect(readChoice(storage)).toEqual({ depositPercent: 25, termMonths: 36, aprPercent: 4.5 });
    items.set('payment-estimate', '{oops');
    expect(readChoice(storage)).toEqual(DEFAULT_CHOICE);
    expect(readChoice(null)).toEqual(DEFAULT_CHOICE);
  });
});

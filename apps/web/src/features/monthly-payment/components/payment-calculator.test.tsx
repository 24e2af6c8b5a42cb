import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import PaymentCalculator from './payment-calculator';

/*
 * The car page's monthly payment estimate in each of its states (moved from
 * car-page-extras.spec.ts): the defaults, the figures as deposit, term and APR change, the words
 * for a wrong field, what a screen reader hears, and the choice the next car starts from.
 */

function renderCalculator(priceCents: number) {
  const view = renderWithApp(<PaymentCalculator priceCents={priceCents} currency="USD" />);
  const calculator = screen.getByRole('region', { name: 'Monthly payment estimate' });
  const inside = within(calculator);
  return {
    ...view,
    calculator,
    deposit: inside.getByLabelText('Deposit (USD)'),
    term: inside.getByLabelText('Term (months)'),
    apr: inside.getByLabelText('APR (%)'),
    figure: (testId: string) => inside.queryByTestId(testId)?.textContent,
  };
}

beforeEach(() => localStorage.clear());

describe('the monthly payment estimate', () => {
  it('starts at 10% down, 60 months at 7.9%, and says it is no offer of credit', () => {
    const { calculator, deposit, term, apr, figure } = renderCalculator(2_000_000);
    expect(calculator).toHaveTextContent('not an offer of credit');
    expect(deposit).toHaveValue('2,000');
    expect(term).toHaveValue(60);
    expect(apr).toHaveValue(7.9);
    expect(figure('monthly-payment')).toBe('$364.11');
  });

  it('follows deposit, term and APR: the monthly payment to the cent, the totals whole', async () => {
    const { user, deposit, term, apr, figure } = renderCalculator(2_000_000);
    const set = async (field: HTMLElement, text: string) => {
      await user.clear(field);
      await user.type(field, text);
    };
    await set(deposit, '0');
    await set(apr, '6');
    expect(figure('monthly-payment')).toBe('$386.66');
    expect(figure('total-cost')).toBe('$23,200');
    expect(figure('total-interest')).toBe('$3,200');
    await set(term, '48');
    expect(figure('monthly-payment')).toBe('$469.70');
    await set(deposit, '5,000');
    expect(figure('monthly-payment')).toBe('$352.28');
    expect(figure('total-cost')).toBe('$21,909');
    await set(apr, '0');
    expect(figure('monthly-payment')).toBe('$312.50');
    expect(figure('total-interest')).toBe('$0');
  });

  it('says what is wrong in the field, and gives no figure meanwhile', async () => {
    const { user, calculator, deposit, apr, figure } = renderCalculator(2_000_000);
    await user.clear(deposit);
    await user.type(deposit, '25,000');
    expect(deposit).toHaveAttribute('aria-invalid', 'true');
    expect(deposit).toHaveAccessibleDescription(
      'The deposit must be less than the price of the car.',
    );
    expect(figure('monthly-payment')).toBeUndefined();
    expect(calculator).toHaveTextContent('Correct the fields above to see the monthly payment.');
    await user.clear(apr);
    await user.type(apr, '60');
    expect(apr).toHaveAttribute('aria-invalid', 'true');
    expect(apr).toHaveAccessibleDescription('The APR must be from 0% to 50%.');

    await user.clear(deposit);
    await user.type(deposit, '5,000');
    await user.clear(apr);
    await user.type(apr, '6');
    expect(deposit).not.toHaveAttribute('aria-invalid', 'true');
    expect(apr).not.toHaveAttribute('aria-invalid', 'true');
    expect(figure('monthly-payment')).toBe('$289.99');
  });

  it('announces only the monthly payment, once, when typing pauses', async () => {
    const { user, calculator, apr } = renderCalculator(2_000_000);
    // One live region: the figures below are read on demand, not spoken.
    expect(calculator.querySelectorAll('[aria-live], [role="status"]')).toHaveLength(1);
    const announcement = within(calculator).getByRole('status');
    const heard: string[] = [];
    new MutationObserver(() => heard.push(announcement.textContent ?? '')).observe(announcement, {
      childList: true,
      subtree: true,
      characterData: true,
    });
    await user.clear(apr);
    // A person's typing: a key every 60 ms, well within the pause that lets it be announced.
    for (const key of '6.5') {
      await user.type(apr, key);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    // Still typing: nothing said yet.
    expect(announcement).toHaveTextContent('');
    await waitFor(() => expect(announcement).toHaveTextContent('Monthly payment $352.19'));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(heard.filter(Boolean)).toEqual(['Monthly payment $352.19']);
  });

  it('starts the next car from the choice: its deposit share, to the nearest hundred', async () => {
    const first = renderCalculator(2_000_000);
    await first.user.clear(first.deposit);
    await first.user.type(first.deposit, '5,000');
    await first.user.clear(first.term);
    await first.user.type(first.term, '48');
    await first.user.clear(first.apr);
    await first.user.type(first.apr, '6');
    expect(first.figure('monthly-payment')).toBe('$352.28');
    first.unmount();

    // 25% of 34,700 is 8,675: a round 8,700.
    const next = renderCalculator(3_470_000);
    expect(next.deposit).toHaveValue('8,700');
    expect(next.term).toHaveValue(48);
    expect(next.apr).toHaveValue(6);
    // 26,000 at 6% over 48 months.
    expect(next.figure('monthly-payment')).toBe('$610.61');
    // Long figures: all 34,700 over 12 months.
    await next.user.clear(next.deposit);
    await next.user.type(next.deposit, '0');
    await next.user.clear(next.term);
    await next.user.type(next.term, '12');
    expect(next.figure('monthly-payment')).toBe('$2,986.51');
    expect(next.figure('total-cost')).toBe('$35,838');
  });

  it('keeps no wrong choice: a car opened after an error starts from the last right one', async () => {
    const first = renderCalculator(2_000_000);
    await first.user.clear(first.term);
    await first.user.type(first.term, '48');
    await first.user.clear(first.apr);
    await first.user.type(first.apr, '-1');
    first.unmount();
    const next = renderCalculator(2_000_000);
    expect(next.term).toHaveValue(48);
    expect(next.apr).toHaveValue(7.9);
  });
});

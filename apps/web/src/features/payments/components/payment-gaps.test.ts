import { describe, expect, it } from 'vitest';

import { billingGaps, payBlocker } from './payment-gaps';

describe('why Pay cannot send the card yet', () => {
  it('lists what is empty in one sentence', () => {
    expect(payBlocker({ missing: ['the CVC'], problems: [] })).toBe('To pay, enter the CVC.');
    expect(payBlocker({ missing: ['the expiry date', 'the CVC'], problems: [] })).toBe(
      'To pay, enter the expiry date and the CVC.',
    );
    expect(
      payBlocker(
        { missing: ['the card number', 'the expiry date'], problems: [] },
        billingGaps({ name: '', email: 'dana@example.com' }),
      ),
    ).toBe('To pay, enter the card number, the expiry date and the name on the card.');
  });

  it('names what is wrong first, then what is still empty', () => {
    expect(
      payBlocker({ missing: ['the CVC'], problems: ['The expiry date 12/20 has passed.'] }),
    ).toBe('The expiry date 12/20 has passed. To pay, also enter the CVC.');
  });

  it('says nothing when all is there', () => {
    expect(payBlocker({ missing: [], problems: [] })).toBeNull();
    expect(payBlocker(billingGaps({ name: 'Dana', email: 'dana@example.com' }))).toBeNull();
  });

  it('asks for the name and a usable email for the receipt', () => {
    expect(billingGaps({ name: ' ', email: '' }).missing).toEqual([
      'the name on the card',
      'an email for the receipt',
    ]);
    expect(billingGaps({ name: 'Dana', email: 'dana' }).problems).toEqual([
      'The email for the receipt needs an @.',
    ]);
  });
});

import { describe, expect, it } from 'vitest';

import {
  caretAfterDigits,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  isCardComplete,
  parseExpiry,
} from './card-input';

describe('card input', () => {
  it('groups the card number in fours as it is typed, up to 19 digits', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242 42')).toBe('4242 42');
    expect(formatCardNumber('4242 ')).toBe('4242');
    expect(formatCardNumber('4-2a4')).toBe('424');
    expect(formatCardNumber('1'.repeat(25)).replace(/ /g, '')).toHaveLength(19);
  });

  it('keeps the caret after the same digits when spaces move', () => {
    // "4242 4" with a digit typed after the second: the caret was after 3 digits.
    expect(caretAfterDigits('4242 4242', 3)).toBe(3);
    expect(caretAfterDigits('4242 4242', 5)).toBe(6);
    expect(caretAfterDigits('4242', 9)).toBe(4);
  });

  it('writes the expiry as MM/YY and reads it back', () => {
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12/3');
    expect(formatExpiry('12/345')).toBe('12/34');
    expect(parseExpiry('04/31')).toEqual({ expMonth: 4, expYear: 2031 });
    expect(parseExpiry('04/3')).toBeNull();
    expect(formatCvc('12a34')).toBe('1234');
  });

  it('is complete only with a whole number, date and security code', () => {
    const card = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
    expect(isCardComplete(card)).toBe(true);
    expect(isCardComplete({ ...card, number: '4242 4242' })).toBe(false);
    expect(isCardComplete({ ...card, expiry: '12/' })).toBe(false);
    expect(isCardComplete({ ...card, cvc: '12' })).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';

import {
  caretAfterDigits,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  cardGaps,
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

  it('writes the expiry as MM/YY however it was typed or pasted', () => {
    for (const pasted of [
      '12/30',
      '12 / 30',
      '12/2030',
      '12 / 2030',
      ' 12/30 ',
      '1230',
      '122030',
    ]) {
      expect(formatExpiry(pasted), pasted).toBe('12/30');
    }
    expect(formatExpiry('12-30')).toBe('12/30');
    expect(formatExpiry('12.30')).toBe('12/30');
    expect(formatExpiry('12 30')).toBe('12/30');
    expect(formatExpiry('1/30')).toBe('01/30');
    expect(formatExpiry('430')).toBe('04/30');
    expect(formatExpiry('12/1999')).toBe('12/19');
    expect(formatExpiry('12/345')).toBe('12/34');
  });

  it('leaves an expiry being typed as it is, so typing and deleting work', () => {
    expect(formatExpiry('')).toBe('');
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('12/')).toBe('12/');
    expect(formatExpiry('123')).toBe('12/3');
    // On the way to a four-digit year, then shortened.
    expect(formatExpiry('12/20')).toBe('12/20');
    expect(formatExpiry('12/203')).toBe('12/203');
    expect(formatExpiry('12/2030')).toBe('12/30');
  });

  it('reads MM/YY back as month and year', () => {
    expect(parseExpiry('04/31')).toEqual({ expMonth: 4, expYear: 2031 });
    expect(parseExpiry('04/3')).toBeNull();
    expect(parseExpiry('04/')).toBeNull();
    expect(parseExpiry('12/203')).toBeNull();
    expect(formatCvc('12a34')).toBe('1234');
    expect(formatCvc(' 1234 ')).toBe('1234');
  });

  it('says which card fields are empty and what is wrong with the others', () => {
    const now = new Date(2026, 10, 23);
    const card = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
    expect(cardGaps(card, now)).toEqual({ missing: [], problems: [] });
    expect(cardGaps({ number: '', expiry: '', cvc: '' }, now)).toEqual({
      missing: ['the card number', 'the expiry date', 'the CVC'],
      problems: [],
    });
    expect(cardGaps({ ...card, number: '4242 4242' }, now).problems).toEqual([
      'The card number is too short.',
    ]);
    expect(cardGaps({ ...card, expiry: '12/' }, now).problems).toEqual([
      'Enter the expiry date as MM/YY.',
    ]);
    expect(cardGaps({ ...card, expiry: '13/30' }, now).problems).toEqual([
      'The expiry month must be from 01 to 12.',
    ]);
    expect(cardGaps({ ...card, cvc: '12' }, now).problems).toEqual(['The CVC has 3 or 4 digits.']);
  });

  it('takes a card as good until the end of its expiry month', () => {
    const now = new Date(2026, 10, 23);
    const card = { number: '4242 4242 4242 4242', cvc: '123' };
    expect(cardGaps({ ...card, expiry: '11/26' }, now).problems).toEqual([]);
    expect(cardGaps({ ...card, expiry: '10/26' }, now).problems).toEqual([
      'The expiry date 10/26 has passed.',
    ]);
    expect(cardGaps({ ...card, expiry: '12/20' }, now).problems).toEqual([
      'The expiry date 12/20 has passed.',
    ]);
  });
});

import { describe, expect, it } from 'vitest';

import { formatMoney } from './money';

describe('formatMoney', () => {
  it('shows whole amounts without cents', () => {
    expect(formatMoney(3_355_000_00, 'USD')).toBe('$3,355,000');
    expect(formatMoney(0, 'USD')).toBe('$0');
  });

  it('shows both cent digits when there are cents', () => {
    expect(formatMoney(12_345, 'USD')).toBe('$123.45');
    expect(formatMoney(12_340, 'USD')).toBe('$123.40');
    expect(formatMoney(5, 'USD')).toBe('$0.05');
  });

  it('decides for each amount, whatever was formatted before in the same currency', () => {
    const a = formatMoney(500_00, 'EUR');
    const b = formatMoney(12_345, 'EUR');
    const c = formatMoney(700_00, 'EUR');
    expect([a, b, c]).toEqual(['€500', '€123.45', '€700']);
    expect([formatMoney(99, 'GBP'), formatMoney(100, 'GBP')]).toEqual(['£0.99', '£1']);
  });

  it('follows the locale given', () => {
    expect(formatMoney(1_234_567, 'EUR', { locale: 'de-DE' })).toBe('12.345,67\u00a0€');
  });

  it('rounds to whole units when asked, as the search filters show their bounds', () => {
    expect(formatMoney(1_500_000, 'USD', { precision: 'whole' })).toBe('$15,000');
    expect(formatMoney(1_234_567, 'USD', { precision: 'whole' })).toBe('$12,346');
  });

  it('shortens large amounts to at most one decimal for a chart axis when asked', () => {
    expect(formatMoney(150_000_00, 'USD', { precision: 'compact' })).toBe('$150K');
    expect(formatMoney(1_250_000_00, 'USD', { precision: 'compact' })).toBe('$1.3M');
    expect(formatMoney(0, 'USD', { precision: 'compact' })).toBe('$0');
  });
});

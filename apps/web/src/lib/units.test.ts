import { describe, expect, it } from 'vitest';

import { formatDistance, formatLength, formatMileage, fromKm, lengthUnitOf, toKm } from './units';

describe('lengths people read', () => {
  it('are in miles beside dollars and pounds, in kilometres beside other currencies', () => {
    expect(lengthUnitOf('USD')).toBe('mi');
    expect(lengthUnitOf('GBP')).toBe('mi');
    expect(lengthUnitOf('usd')).toBe('mi');
    expect(lengthUnitOf('EUR')).toBe('km');
    expect(lengthUnitOf('JPY')).toBe('km');
  });

  it('show a car’s stored kilometres in whole units, and say when there is no mileage', () => {
    expect(formatMileage(38_400, 'USD')).toBe('23,861 mi');
    expect(formatMileage(38_400, 'EUR')).toBe('38,400 km');
    expect(formatMileage(0, 'USD')).toBe('0 mi');
    expect(formatMileage(null, 'USD')).toBe('Not given');
    expect(formatLength(160_934, 'mi')).toBe('100,000 mi');
  });

  it('turn whole miles typed into kilometres and back to the same miles', () => {
    expect(toKm(42_000, 'mi')).toBe(67_592);
    expect(toKm(42_000, 'km')).toBe(42_000);
    for (const miles of [0, 1, 2, 10, 25, 99, 12_345, 50_000, 200_000, 1_242_742]) {
      expect(fromKm(toKm(miles, 'mi'), 'mi')).toBe(miles);
    }
  });

  it('say how far a car is, "Under 1" when closer than one unit', () => {
    expect(formatDistance(0.4, 'km')).toBe('Under 1 km away');
    expect(formatDistance(1.2, 'mi')).toBe('Under 1 mi away');
    expect(formatDistance(1.7, 'mi')).toBe('1 mi away');
    expect(formatDistance(80.5, 'mi')).toBe('50 mi away');
    expect(formatDistance(12.4, 'km')).toBe('12 km away');
  });
});

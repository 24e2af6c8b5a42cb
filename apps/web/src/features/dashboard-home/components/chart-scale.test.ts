import { describe, expect, it } from 'vitest';

import { niceMax, ticks } from './chart-scale';

describe('chart scale', () => {
  it('rounds the top of an axis up to 1, 2 or 5 times a power of ten', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(7)).toBe(10);
    expect(niceMax(18)).toBe(20);
    expect(niceMax(108_100)).toBe(200_000);
    expect(niceMax(500)).toBe(500);
  });

  it('spaces the ticks evenly from zero', () => {
    expect(ticks(200, 4)).toEqual([0, 50, 100, 150, 200]);
  });
});

import { describe, expect, it } from 'vitest';

import { changedOn, timeSince } from './price-history';

// Local times, as the reader's browser counts days.
const at = (day: number, hour = 12, month = 10) => new Date(2026, month, day, hour).toISOString();
const now = new Date(2026, 10, 28, 9);

describe('timeSince: how long a car has been on the market', () => {
  it('says today, yesterday, then days, by the calendar', () => {
    expect(timeSince(at(28, 0), now)).toBe('today');
    // Last night, a few hours ago: yesterday.
    expect(timeSince(at(27, 23), now)).toBe('yesterday');
    expect(timeSince(at(16), now)).toBe('12 days ago');
  });

  it('says months from 60 days, and years from two of them', () => {
    expect(timeSince(at(30, 12, 8), now)).toBe('59 days ago');
    expect(timeSince(at(28, 12, 8), now)).toBe('2 months ago');
    expect(timeSince(new Date(2024, 9, 1).toISOString(), now)).toBe('2 years ago');
  });

  it('answers today for a time a little ahead of the reader’s clock', () => {
    expect(timeSince(new Date(2026, 10, 28, 10).toISOString(), now)).toBe('today');
  });
});

describe('changedOn: when the price changed, in the listed line’s words', () => {
  it('says today and yesterday as the listed line does, then the date', () => {
    expect(changedOn(at(28, 0), now)).toBe('today');
    expect(changedOn(at(27, 23), now)).toBe('yesterday');
    expect(changedOn(at(3), now)).toBe('on Nov 3');
    expect(changedOn(new Date(2025, 10, 3, 12).toISOString(), now)).toMatch(/^on Nov 3, 2025$/);
  });
});

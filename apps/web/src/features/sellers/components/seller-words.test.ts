import { describe, expect, it, vi } from 'vitest';

import { carsText, initialsOf, replyRateText, replyTimeText } from './seller-words';

describe("a seller's words", () => {
  it('says a reply time by the hour, rounded up, and by the day past two days', () => {
    expect(replyTimeText(null)).toBeNull();
    expect(replyTimeText(0)).toBe('Usually replies within an hour');
    expect(replyTimeText(60)).toBe('Usually replies within an hour');
    expect(replyTimeText(61)).toBe('Usually replies within 2 hours');
    expect(replyTimeText(47 * 60)).toBe('Usually replies within 47 hours');
    expect(replyTimeText(47 * 60 + 1)).toBe('Usually replies within 2 days');
    expect(replyTimeText(80 * 60)).toBe('Usually replies within 4 days');
  });

  it('says the reply rate in whole percent, and nothing without one', () => {
    expect(replyRateText(null)).toBeNull();
    expect(replyRateText(2 / 3)).toBe('Replies to 67% of buyers');
    expect(replyRateText(0)).toBe('Replies to 0% of buyers');
  });

  it('counts cars and shows up to two initials', () => {
    expect(carsText(1, 'on sale')).toBe('1 car on sale');
    expect(carsText(1200, 'sold')).toBe('1,200 cars sold');
    expect(initialsOf('harbour autos of fresno')).toBe('HA');
    expect(initialsOf('  ')).toBe('?');
  });

  it('makes its date formatter on first use, not when the car page loads it', async () => {
    vi.resetModules();
    const Real = Intl.DateTimeFormat;
    const made = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (
      this: unknown,
      ...args
    ) {
      return new Real(...args);
    } as typeof Real);
    try {
      const { memberSinceText } = await import('./seller-words');
      expect(made).not.toHaveBeenCalled();
      expect(memberSinceText('2024-03-15T12:00:00.000Z')).toBe('Member since March 2024');
      expect(memberSinceText('2025-11-15T12:00:00.000Z')).toBe('Member since November 2025');
      expect(made).toHaveBeenCalledTimes(1);
    } finally {
      made.mockRestore();
    }
  });
});

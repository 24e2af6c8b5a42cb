import type { Handover } from '@carmarket/shared';
import { describe, expect, it } from 'vitest';

import { formatDate } from '../../../lib/format-date';
import { handoverWords } from './handover-status';

const releasedAt = '2026-11-20T10:00:00.000Z';
const released = (releasedBy: Handover['releasedBy']): Handover => ({
  state: 'released',
  releaseDueAt: '2026-11-27T10:00:00.000Z',
  releasedAt,
  releasedBy,
  refundedAt: null,
  feeCents: 50_000,
  sellerCents: 1_200_000,
  disputeId: null,
});

describe("a released booking's words say who released the money", () => {
  const on = formatDate(releasedAt);

  it('the buyer confirmed: handed over', () => {
    expect(handoverWords(released('buyer'), 'buyer', true)).toBe(`Handed over on ${on}.`);
    expect(handoverWords(released('buyer'), 'seller', true)).toBe(`Handed over on ${on}.`);
  });

  it('the days ran out: released, not handed over', () => {
    expect(handoverWords(released('timer'), 'buyer', true)).toBe(
      `Released to the seller on ${on}: the time to report a problem ended.`,
    );
    expect(handoverWords(released('timer'), 'seller', true)).toBe(
      `Released to you on ${on}: the buyer's time to report a problem ended.`,
    );
  });

  it('an administrator ruled: released by their ruling', () => {
    expect(handoverWords(released('admin'), 'buyer', true)).toBe(
      `Released to the seller on ${on} by an administrator's ruling.`,
    );
    expect(handoverWords(released('admin'), 'seller', true)).toBe(
      `Released to you on ${on} by an administrator's ruling.`,
    );
  });
});

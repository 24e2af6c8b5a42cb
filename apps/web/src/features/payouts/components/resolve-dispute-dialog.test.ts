import type { Dispute } from '@carmarket/shared';
import { describe, expect, it } from 'vitest';

import { rulingWords } from './resolve-dispute-dialog';

const dispute: Dispute = {
  _id: '00000000-0000-4000-8000-000000000001',
  bookingId: '00000000-0000-4000-8000-000000000002',
  listingId: '00000000-0000-4000-8000-000000000003',
  carName: 'VW Caddy',
  buyerName: 'Remy Reporter',
  buyerEmail: 'remy@example.com',
  sellerName: 'Orla Owner',
  amount: 1_250_000,
  currency: 'USD',
  reason: 'The seller never turned up.',
  status: 'open',
  outcome: null,
  note: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  resolvedAt: null,
};

describe("an admin's ruling, in words", () => {
  it('says a refund is done only when the server answered it resolved', () => {
    const ruling = { dispute, outcome: 'refund' } as const;
    expect(rulingWords(ruling, { ...dispute, status: 'resolved', outcome: 'refund' }).done).toBe(
      'Remy Reporter was refunded $12,500 for the VW Caddy.',
    );
    // The provider did not finish at once: the ruling stands, the sweep finishes it.
    expect(rulingWords(ruling, { ...dispute, status: 'resolving', outcome: 'refund' }).done).toBe(
      'The refund of $12,500 to Remy Reporter for the VW Caddy is under way; it finishes by itself.',
    );
  });

  it('says the money was released to the seller', () => {
    const answered = { ...dispute, status: 'resolved', outcome: 'release' } as const;
    expect(rulingWords({ dispute, outcome: 'release' }, answered).done).toBe(
      'The money for the VW Caddy was released to Orla Owner.',
    );
  });
});

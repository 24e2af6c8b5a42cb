import type { Handover } from '@carmarket/shared';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { formatDeadline } from '../../../lib/deadline';
import { BookingStatusBadge } from './booking-status-badge';
import { HandoverStatus, useCanReportProblem } from './handover-status';

/*
 * A paid booking's money in My Orders, in words and on its badge (moved from payouts.spec.ts):
 * the deadline while it runs and once it has passed with the page open, a problem reported, a
 * refund, an administrator's ruling.
 */

const releaseDueAt = '2026-11-27T10:00:00.000Z';
const paid: Handover = {
  state: 'awaiting-handover',
  releaseDueAt,
  releasedAt: null,
  releasedBy: null,
  refundedAt: null,
  feeCents: 50_000,
  sellerCents: 1_200_000,
  disputeId: null,
};

/** The words and the buyer's Report a problem button, as a row of My Orders holds them. */
function Row({ handover }: { handover: Handover }) {
  const canReport = useCanReportProblem(handover);
  return (
    <>
      <BookingStatusBadge status="paid" handover={handover} />
      <HandoverStatus bookingId="b-1" handover={handover} reader="buyer" />
      {canReport && <button type="button">Report a problem</button>}
    </>
  );
}

const words = () => screen.getByTestId('handover-status');
const day = /\w{3} \d{1,2}, \d{4}/.source;

afterEach(() => vi.useRealTimers());

describe("a paid booking's hand-over in My Orders", () => {
  it('says when the money goes to the seller, and the badge says Paid once', () => {
    vi.useFakeTimers({ now: Date.parse(releaseDueAt) - 86_400_000 });
    render(<Row handover={paid} />);
    expect(screen.getByText('Paid', { exact: true })).toBeInTheDocument();
    expect(words()).toHaveTextContent(
      `Confirm hand-over once you have the car; the money goes to the seller on ${formatDeadline(releaseDueAt)} unless you report a problem before then.`,
    );
    expect(words()).toHaveAttribute('tabindex', '-1');
  });

  it('once the days to report a problem are over, with the page open, no longer offers it', () => {
    vi.useFakeTimers({ now: Date.parse(releaseDueAt) - 60_000 });
    render(<Row handover={paid} />);
    expect(screen.getByRole('button', { name: 'Report a problem' })).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.queryByRole('button', { name: 'Report a problem' })).toBeNull();
    expect(words()).toHaveTextContent(
      `The time to report a problem ended on ${formatDeadline(releaseDueAt)}: the money goes to the seller.`,
    );
  });

  it('a problem reported: an administrator is looking at it, and nothing more to report', () => {
    render(<Row handover={{ ...paid, state: 'disputed', disputeId: 'd-1' }} />);
    expect(words()).toHaveTextContent('You reported a problem; an administrator is looking at it.');
    expect(screen.queryByRole('button', { name: 'Report a problem' })).toBeNull();
  });

  it('refunded after a dispute: the words and the badge say Refunded, not Paid', () => {
    render(
      <Row handover={{ ...paid, state: 'refunded', refundedAt: '2026-11-22T10:00:00.000Z' }} />,
    );
    expect(words().textContent).toMatch(new RegExp(`^Refunded on ${day}\\.$`));
    expect(screen.getByText('Refunded', { exact: true })).toBeInTheDocument();
    expect(screen.queryByText('Paid', { exact: true })).toBeNull();
  });

  it("released by an administrator's ruling: says so, and the badge still says Paid", () => {
    render(
      <Row
        handover={{
          ...paid,
          state: 'released',
          releasedBy: 'admin',
          releasedAt: '2026-11-22T10:00:00.000Z',
        }}
      />,
    );
    expect(words().textContent).toMatch(
      new RegExp(`^Released to the seller on ${day} by an administrator's ruling\\.$`),
    );
    expect(screen.getByText('Paid', { exact: true })).toBeInTheDocument();
  });
});

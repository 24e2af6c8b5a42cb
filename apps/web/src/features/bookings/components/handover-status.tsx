import type { Handover } from '@carmarket/shared';

import { formatDate } from '../../../lib/format-date';

const on = (iso: string | null) => (iso ? ` on ${formatDate(iso)}` : '');

/** Where a paid booking's money is, in words, for its buyer or for the car's seller. */
export function handoverWords(handover: Handover, reader: 'buyer' | 'seller'): string {
  const buyer = reader === 'buyer';
  switch (handover.state) {
    case 'awaiting-handover':
      return buyer
        ? `Paid. Confirm hand-over once you have the car; the seller is paid on ${formatDate(handover.releaseDueAt)} unless you report a problem.`
        : `Paid; the money is held until hand-over. You are paid on ${formatDate(handover.releaseDueAt)} unless the buyer reports a problem first.`;
    case 'disputed':
      return buyer
        ? 'You reported a problem; an administrator is looking at it.'
        : 'The buyer reported a problem; an administrator is looking at it. The money waits for their ruling.';
    case 'released':
      return `Handed over${on(handover.releasedAt)}.`;
    case 'refunded':
      return buyer
        ? `Refunded${on(handover.refundedAt)}.`
        : `Refunded to the buyer${on(handover.refundedAt)}.`;
  }
}

/**
 * A paid booking's money in words. Focusable, for the page to move focus here once the buttons
 * that changed it are gone.
 */
export function HandoverStatus({
  bookingId,
  handover,
  reader,
}: {
  bookingId: string;
  handover: Handover;
  reader: 'buyer' | 'seller';
}) {
  return (
    <p
      tabIndex={-1}
      data-handover={bookingId}
      data-testid="handover-status"
      className="max-w-72 text-sm leading-6 text-muted"
    >
      {handoverWords(handover, reader)}
    </p>
  );
}

/** Moves focus to a booking's hand-over words (the one shown: the table or the cards). */
export function focusHandover(bookingId: string) {
  const shown = [...document.querySelectorAll<HTMLElement>(`[data-handover="${bookingId}"]`)].find(
    (element) => element.offsetParent !== null,
  );
  shown?.focus();
}

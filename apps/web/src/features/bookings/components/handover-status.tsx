import type { Handover } from '@carmarket/shared';

import { formatDeadline, useHasPassed } from '../../../lib/deadline';
import { formatDate } from '../../../lib/format-date';

const on = (iso: string | null) => (iso ? ` on ${formatDate(iso)}` : '');

/**
 * Where a paid booking's money is, in words, for its buyer or for the car's seller. `duePassed`:
 * the days to report a problem are over, and the money goes to the seller at the next sweep.
 */
export function handoverWords(
  handover: Handover,
  reader: 'buyer' | 'seller',
  duePassed: boolean,
): string {
  const buyer = reader === 'buyer';
  const due = formatDeadline(handover.releaseDueAt);
  // The badge beside these words already says Paid.
  switch (handover.state) {
    case 'awaiting-handover':
      if (duePassed) {
        return buyer
          ? `The time to report a problem ended on ${due}: the money goes to the seller.`
          : `The buyer's time to report a problem ended on ${due}: the money is released to you shortly.`;
      }
      return buyer
        ? `Confirm hand-over once you have the car; the money goes to the seller on ${due} unless you report a problem before then.`
        : `The money is held until hand-over. It is released to you on ${due} unless the buyer reports a problem first.`;
    case 'disputed':
      return buyer
        ? 'You reported a problem; an administrator is looking at it.'
        : 'The buyer reported a problem; an administrator is looking at it. The money waits for their ruling.';
    case 'released':
      return releasedWords(handover, buyer);
    case 'refunded':
      return buyer
        ? `Refunded${on(handover.refundedAt)}.`
        : `Refunded to the buyer${on(handover.refundedAt)}.`;
  }
}

/** Who released the money: the buyer's confirmation, the days running out, or an admin's ruling. */
function releasedWords(handover: Handover, buyer: boolean): string {
  const when = on(handover.releasedAt);
  const to = buyer ? 'to the seller' : 'to you';
  switch (handover.releasedBy) {
    case 'timer':
      return buyer
        ? `Released ${to}${when}: the time to report a problem ended.`
        : `Released ${to}${when}: the buyer's time to report a problem ended.`;
    case 'admin':
      return `Released ${to}${when} by an administrator's ruling.`;
    default:
      return `Handed over${when}.`;
  }
}

/** Whether the buyer may still report a problem: the server refuses once `releaseDueAt` passed. */
export function useCanReportProblem(handover: Handover | null): boolean {
  const duePassed = useHasPassed(handover?.releaseDueAt);
  return handover?.state === 'awaiting-handover' && !duePassed;
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
  const duePassed = useHasPassed(handover.releaseDueAt);
  return (
    <p
      tabIndex={-1}
      data-handover={bookingId}
      data-testid="handover-status"
      className="max-w-72 text-sm leading-6 text-muted"
    >
      {handoverWords(handover, reader, duePassed)}
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

import type { BookingStatus, Handover } from '@carmarket/shared';

const BADGES: Record<BookingStatus, { label: string; className: string }> = {
  pending: { label: 'Awaiting payment', className: 'bg-accent/25 text-accent-content' },
  paid: { label: 'Paid', className: 'bg-success text-success-content' },
  cancelled: { label: 'Cancelled', className: 'bg-base-200 text-muted' },
  // The car went to another buyer, or the seller or an admin took it off the market.
  closed: { label: 'Closed', className: 'bg-base-200 text-muted' },
  // The money went back to the buyer after a dispute (decision 044).
  refunded: { label: 'Refunded', className: 'bg-base-200 text-muted' },
};

export function BookingStatusBadge({
  status,
  handover = null,
}: {
  status: BookingStatus;
  /** A paid booking's hand-over: its badge says Refunded once the money went back. */
  handover?: Handover | null;
}) {
  const { label, className } = handover?.state === 'refunded' ? BADGES.refunded : BADGES[status];
  return (
    <span
      className={`inline-flex rounded-full px-2.5 whitespace-nowrap py-0.5 text-xs leading-5 font-semibold ${className}`}
    >
      {label}
    </span>
  );
}

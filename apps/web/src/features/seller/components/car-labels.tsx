import type { ListingStatus } from '@carmarket/shared';

const LISTING_STATUS: Record<ListingStatus, { label: string; className: string }> = {
  available: { label: 'On sale', className: 'badge-success' },
  reserved: { label: 'Reserved', className: 'badge-warning' },
  sold: { label: 'Sold', className: 'badge-neutral' },
  withdrawn: { label: 'Withdrawn', className: 'badge-ghost' },
  removed: { label: 'Removed', className: 'badge-ghost' },
};

/** The word a seller reads for a car's status ("On sale", "Withdrawn"). */
export const listingStatusLabel = (status: ListingStatus) => LISTING_STATUS[status].label;

export function ListingStatusBadge({ status }: { status: ListingStatus }) {
  const { label, className } = LISTING_STATUS[status];
  return <span className={`badge badge-sm whitespace-nowrap ${className}`}>{label}</span>;
}

/** The spec's label: Sold once a booking of the car is paid, Unsold before. */
export function SaleLabel({ sold }: { sold: boolean }) {
  return (
    <span
      className={`badge badge-sm badge-outline whitespace-nowrap ${sold ? 'badge-success' : ''}`}
      data-testid="sale-label"
    >
      {sold ? 'Sold' : 'Unsold'}
    </span>
  );
}

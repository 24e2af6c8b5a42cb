import type { ListingCard } from '@carmarket/shared';

const kilometres = new Intl.NumberFormat('en-US');

/** "38,400 km", or a plain word when the seller left the mileage out. */
export function formatMileage(mileageKm: number | null): string {
  return mileageKm === null ? 'Not given' : `${kilometres.format(mileageKm)} km`;
}

type Facts = Pick<ListingCard, 'location' | 'year' | 'condition' | 'mileageKm'>;

/** Location, model year, condition and mileage as a two-column list of label and value. */
export function ListingFacts({ listing, className = '' }: { listing: Facts; className?: string }) {
  const facts = [
    ['Location', listing.location],
    ['Model year', String(listing.year)],
    ['Condition', listing.condition],
    ['Mileage', formatMileage(listing.mileageKm)],
  ] as const;
  return (
    <dl className={`grid grid-cols-2 gap-x-4 gap-y-3 ${className}`}>
      {facts.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs leading-5 font-semibold tracking-wide text-muted uppercase">
            {label}
          </dt>
          <dd className="truncate text-sm leading-5 font-medium" title={value}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

import type { ListingCard } from '@carmarket/shared';

import { formatMileage } from '../../../lib/units';
import { fuelLabel, transmissionLabel } from '../car-labels';

type Facts = Pick<ListingCard, 'location' | 'year' | 'condition' | 'mileageKm' | 'currency'>;
type FullFacts = Facts &
  Pick<ListingCard, 'make' | 'model' | 'bodyType' | 'fuel' | 'transmission' | 'colour'> & {
    vin: string | null;
  };

/**
 * Location, model year, condition and mileage as a two-column list of label and value; with
 * `full` (the car's own page), also make, model, body, fuel, gearbox, colour and VIN when known.
 */
export function ListingFacts({
  listing,
  full,
  className = '',
}: {
  listing: Facts;
  full?: FullFacts;
  className?: string;
}) {
  const more: [string, string | null][] = full
    ? [
        ['Make', full.make],
        ['Model', full.model],
        ['Body type', full.bodyType],
        ['Fuel', full.fuel && fuelLabel(full.fuel)],
        ['Gearbox', full.transmission && transmissionLabel(full.transmission)],
        ['Colour', full.colour],
        ['VIN', full.vin],
      ]
    : [];
  const facts = [
    ['Location', listing.location],
    ['Model year', String(listing.year)],
    ['Condition', listing.condition],
    ['Mileage', formatMileage(listing.mileageKm, listing.currency)],
    ...more.filter((fact): fact is [string, string] => Boolean(fact[1])),
  ] as const;
  return (
    <dl className={`grid grid-cols-2 gap-x-4 gap-y-3 ${className}`}>
      {facts.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs leading-5 font-semibold tracking-wide text-muted uppercase">
            {label}
          </dt>
          {/* The VIN whole, broken anywhere, in type that tells 0 from O: a buyer checks it
              against the car's, and a title shown on hover is out of a touch user's reach. */}
          {label === 'VIN' ? (
            <dd className="font-mono text-sm leading-5 font-medium break-all">{value}</dd>
          ) : (
            <dd className="truncate text-sm leading-5 font-medium" title={value}>
              {value}
            </dd>
          )}
        </div>
      ))}
    </dl>
  );
}

import { DEAL_RATING_LABELS, formatMoney, type ListingDetail } from '@carmarket/shared';
import { useId } from 'react';

import { guideMoney } from '../guide-money';
import { DealBadge } from './deal-badge';

/** The typical range's colour on the grey bar. */
const BAND = '#9fcfc9';

/** Where `value` falls on the bar from `min` to `max`, in percent. */
const at = (value: number, min: number, max: number) =>
  `${(((value - min) / (max - min)) * 100).toFixed(2)}%`;

/**
 * The car page's price guide (decision 032): the deal badge, the typical range drawn as a bar with
 * the fair price and this car's price marked on it, and the same in words, which is what a
 * screen reader reads (the bar is a picture of the sentence). A car on sale without a guide says
 * so; a car no longer on sale shows nothing.
 */
export function PriceBand({
  listing,
  className = '',
}: {
  listing: Pick<ListingDetail, 'priceGuide' | 'reprice' | 'currency' | 'status'>;
  className?: string;
}) {
  const titleId = useId();
  const { priceGuide: guide, reprice, currency } = listing;
  if (listing.status !== 'available' && listing.status !== 'reserved') return null;
  const money = (cents: number) => guideMoney(cents, currency);
  const box = `rounded-box border border-base-300 p-4 ${className}`;
  if (!guide) {
    return (
      <section aria-labelledby={titleId} className={box} data-testid="price-band">
        <h2 id={titleId} className="text-sm font-bold">
          Price guide
        </h2>
        <p className="mt-1 text-sm text-muted">Not enough similar cars to rate this price</p>
      </section>
    );
  }
  // The bar runs a little past the typical range and this car's price, so neither sits on its end.
  const lowest = Math.min(guide.low, reprice);
  const highest = Math.max(guide.high, reprice);
  const margin = (highest - lowest) * 0.15 || guide.fair * 0.1;
  const [min, max] = [lowest - margin, highest + margin];
  return (
    <section aria-labelledby={titleId} className={box} data-testid="price-band">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={titleId} className="text-sm font-bold">
          Price guide
        </h2>
        <DealBadge rating={guide.rating} />
      </div>
      <div aria-hidden="true" className="mt-9 mb-2">
        <div className="relative h-2 rounded-full bg-base-300">
          <div
            className="absolute inset-y-0 rounded-full"
            style={{
              left: at(guide.low, min, max),
              right: `calc(100% - ${at(guide.high, min, max)})`,
              background: BAND,
            }}
          />
          <div
            className="absolute -top-1.5 h-5 w-0.5 bg-base-content"
            style={{ left: at(guide.fair, min, max) }}
          />
          <div
            className="absolute -top-6 -translate-x-1/2 text-xs font-semibold whitespace-nowrap text-primary"
            style={{ left: at(reprice, min, max) }}
          >
            This car
          </div>
          <div
            className="absolute -top-1 size-4 -translate-x-1/2 rounded-full border-2 border-base-100 bg-primary"
            style={{ left: at(reprice, min, max) }}
          />
        </div>
        <div className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
          <span className="flex items-center gap-1.5">
            <span className="h-2 w-4 rounded-full" style={{ background: BAND }} />
            Typical range
          </span>
          <span className="flex items-center gap-1.5">
            <span className="h-3 w-0.5 bg-base-content" />
            Fair price
          </span>
          <span className="flex items-center gap-1.5">
            <span className="size-3 rounded-full bg-primary" />
            This car
          </span>
        </div>
      </div>
      <p className="mt-2 text-sm leading-6" data-testid="price-band-summary">
        Fair price {money(guide.fair)} (typical range {money(guide.low)}–{money(guide.high)}), this
        car {formatMoney(reprice, currency)}: {DEAL_RATING_LABELS[guide.rating]}, based on{' '}
        {guide.comparables} similar cars
      </p>
    </section>
  );
}

import { formatMoney, type ListingDetail } from '@carmarket/shared';

import { formatDate } from '../../../lib/format-date';
import { useHydrated } from '../../../lib/use-hydrated';

const DAY_MS = 24 * 3600 * 1000;

/** Whole calendar days from `iso` to `now` in the reader's zone; 0 for a time a little ahead. */
function daysSince(iso: string, now: Date): number {
  // Calendar days in the reader's zone: a car listed last night at 23:50 was listed yesterday.
  const startOf = (date: Date) =>
    new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  return Math.max(0, Math.round((startOf(now) - startOf(new Date(iso))) / DAY_MS));
}

/**
 * "today" or "yesterday" for a date that recent, else null: the one word both the listed line
 * and the price changes use, so "Listed today" is never over "dropped on Nov 28".
 */
export function recentDay(iso: string, now = new Date()): 'today' | 'yesterday' | null {
  const days = daysSince(iso, now);
  return days === 0 ? 'today' : days === 1 ? 'yesterday' : null;
}

/** "today", "yesterday", "12 days ago", "3 months ago", "2 years ago": how long since `iso`. */
export function timeSince(iso: string, now = new Date()): string {
  const recent = recentDay(iso, now);
  if (recent) return recent;
  const days = daysSince(iso, now);
  if (days < 60) return `${days} days ago`;
  const months = Math.floor(days / 30.44);
  if (months < 24) return `${months} months ago`;
  return `${Math.floor(months / 12)} years ago`;
}

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

/** "today", "yesterday", "on Nov 3", with the year when it is not this one ("on Nov 3, 2025"). */
export function changedOn(iso: string, now = new Date()): string {
  const recent = recentDay(iso, now);
  if (recent) return recent;
  const date = new Date(iso);
  return `on ${date.getFullYear() === now.getFullYear() ? dayFormat.format(date) : formatDate(iso)}`;
}

/**
 * The car's time on the market ("Listed 12 days ago") and each change of its price with its
 * date, newest last, under the price on the car page; nothing about prices when it never changed.
 * Dates are the reader's, so they show once the browser has the page (the server's zone is not
 * the reader's); the line's room is kept meanwhile.
 */
export function PriceHistory({
  listing,
  className = '',
}: {
  listing: Pick<ListingDetail, 'listedAt' | 'priceHistory' | 'currency'>;
  className?: string;
}) {
  const hydrated = useHydrated();
  const { priceHistory: history, currency } = listing;
  const changes = history.slice(1).flatMap((entry, index) => {
    const before = history[index]!;
    return entry.price === before.price
      ? []
      : [{ from: before.price, to: entry.price, at: entry.at }];
  });
  return (
    <div className={`text-sm leading-6 text-muted ${className}`} data-testid="price-history">
      <p className="min-h-6">
        {hydrated && (
          <>
            Listed{' '}
            <time dateTime={listing.listedAt} title={formatDate(listing.listedAt)}>
              {timeSince(listing.listedAt)}
            </time>
          </>
        )}
      </p>
      {hydrated && changes.length > 0 && (
        <ul aria-label="Price changes">
          {changes.map((change) => (
            <li key={change.at}>
              Price {change.to < change.from ? 'dropped' : 'rose'} from{' '}
              {formatMoney(change.from, currency)} to{' '}
              <span className="font-semibold text-base-content">
                {formatMoney(change.to, currency)}
              </span>{' '}
              <time dateTime={change.at} title={formatDate(change.at)}>
                {changedOn(change.at)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

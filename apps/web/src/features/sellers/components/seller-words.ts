import type { SellerProfile } from '@carmarket/shared';

import { formatMonthYear } from '../../../lib/format-date';

/** "Member since March 2024". */
export function memberSinceText(iso: string): string {
  return `Member since ${formatMonthYear(iso)}`;
}

/**
 * "Usually replies within an hour", "within 3 hours", "within 2 days": the seller's median reply
 * time, rounded up to the unit. Null without reply figures.
 */
export function replyTimeText(minutes: number | null): string | null {
  if (minutes === null) return null;
  if (minutes <= 60) return 'Usually replies within an hour';
  const hours = Math.ceil(minutes / 60);
  if (hours < 48) return `Usually replies within ${hours} hours`;
  return `Usually replies within ${Math.ceil(hours / 24)} days`;
}

/** "Replies to 75% of buyers"; null without reply figures. */
export function replyRateText(rate: SellerProfile['replyRate']): string | null {
  if (rate === null) return null;
  return `Replies to ${Math.round(rate * 100)}% of buyers`;
}

/** "1 car on sale", "12 cars sold". */
export function carsText(count: number, what: 'on sale' | 'sold'): string {
  return `${new Intl.NumberFormat('en-US').format(count)} ${count === 1 ? 'car' : 'cars'} ${what}`;
}

/** Up to two initials of a name, for a seller without a photo. */
export function initialsOf(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((word) => word[0]!.toUpperCase())
      .join('') || '?'
  );
}

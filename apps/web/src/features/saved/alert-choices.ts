import type { AlertChoice } from '@carmarket/shared';

/*
 * Written out rather than imported (ALERT_CHOICES): a value from @carmarket/shared's saved
 * searches module brings zod into the page. The type keeps the two lists the same.
 */
export const ALERT_LABELS: Record<AlertChoice, string> = {
  instant: 'Instant',
  daily: 'Daily digest',
  off: 'Off',
};

/** What each choice means, for the save dialog. */
export const ALERT_HINTS: Record<AlertChoice, string> = {
  instant: 'An email as soon as a matching car is listed.',
  daily: 'One email a day with the new matching cars.',
  off: 'No email; new cars are counted on your saved searches page.',
};

export const ALERT_ORDER = Object.keys(ALERT_LABELS) as AlertChoice[];

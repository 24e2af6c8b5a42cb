/**
 * A formatter made on its first use: making one costs a few milliseconds on a slow phone, and the
 * pages that load this module (every card, through use-hydrated.ts) mostly format no date.
 */
function formatterOf(options: Intl.DateTimeFormatOptions): (iso: string) => string {
  let formatter: Intl.DateTimeFormat | undefined;
  return (iso) => (formatter ??= new Intl.DateTimeFormat('en-US', options)).format(new Date(iso));
}

const dateFormat = formatterOf({ dateStyle: 'medium' });
const dateTimeFormat = formatterOf({ dateStyle: 'medium', timeStyle: 'short' });
const timeFormat = formatterOf({ timeStyle: 'short' });
const monthYearFormat = formatterOf({ month: 'long', year: 'numeric' });

/** "Mar 7, 2026", for an ISO timestamp from the API. */
export function formatDate(iso: string): string {
  return dateFormat(iso);
}

/** "4:05 PM". */
export function formatTime(iso: string): string {
  return timeFormat(iso);
}

/** "Mar 7, 2026, 4:05 PM". */
export function formatDateTime(iso: string): string {
  return dateTimeFormat(iso);
}

/** "March 2024". */
export function formatMonthYear(iso: string): string {
  return monthYearFormat(iso);
}

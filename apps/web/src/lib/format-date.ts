const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** "Mar 7, 2026", for an ISO timestamp from the API. */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

const timeFormat = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

/** "4:05 PM". */
export function formatTime(iso: string): string {
  return timeFormat.format(new Date(iso));
}

/** "Mar 7, 2026, 4:05 PM". */
export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

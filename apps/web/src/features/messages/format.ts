const time = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const dayWithYear = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const weekday = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
});

const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

/** For lists: "4:05 PM" today, "Mar 7" this year, "Mar 7, 2025" before. */
export function shortWhen(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (sameDay(date, now)) return time.format(date);
  return date.getFullYear() === now.getFullYear() ? day.format(date) : dayWithYear.format(date);
}

/** Above a day's messages: "Today", "Yesterday", or "Saturday, March 7". */
export function dayHeading(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (sameDay(date, now)) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(date, yesterday)) return 'Yesterday';
  return weekday.format(date);
}

/** "4:05 PM", beside a message. */
export const timeOf = (iso: string) => time.format(new Date(iso));

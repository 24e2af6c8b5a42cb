/*
 * Dates as mail names them. A mail does not know its reader's time zone, so it writes UTC and,
 * with a time, says so: "4 December 2026", "4 December 2026 at 16:05 UTC".
 */

const longDates = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

const times = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** "4 December 2026" (the UTC day). */
export const longDate = (date: Date) => longDates.format(date);

/** "4 December 2026 at 16:05 UTC". */
export const longDateTime = (date: Date) => `${longDate(date)} at ${times.format(date)} UTC`;

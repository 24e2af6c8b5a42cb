import { useEffect, useState } from 'react';

/** setTimeout's longest wait (about 24.8 days); a later deadline is waited for in steps. */
const LONGEST_WAIT_MS = 2 ** 31 - 1;

/**
 * Whether the time `iso` has passed, by the reader's clock; true from that moment on, without a
 * reload (false for no time). For what a page offers until a deadline the server keeps.
 */
export function useHasPassed(iso: string | null | undefined): boolean {
  const at = iso ? Date.parse(iso) : NaN;
  const [now, setNow] = useState(Date.now);
  const passed = at <= now;
  useEffect(() => {
    if (passed || Number.isNaN(at)) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(at - now, LONGEST_WAIT_MS));
    return () => clearTimeout(timer);
  }, [at, now, passed]);
  return passed;
}

let deadlineFormat: Intl.DateTimeFormat | undefined;

/**
 * A deadline the reader acts by, with its time, in their own language and time zone (the
 * browser's): "Mar 7, 2026, 4:05 PM", "7 Mar 2026, 16:05". Drawn only in the browser: these pages
 * are not rendered by the server, whose language and zone are not the reader's.
 */
export function formatDeadline(iso: string): string {
  deadlineFormat ??= new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return deadlineFormat.format(new Date(iso));
}

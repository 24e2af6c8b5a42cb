import { useSyncExternalStore } from 'react';

import { formatTime } from './format-date';

const subscribe = () => () => {};

/**
 * False on the server and while the browser takes over a page the server rendered; true once it
 * has, and at once on pages the browser draws itself. A part whose code loads on its own shows
 * only then: drawn by the server, its button would show before it could do anything.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * "4:05 PM" in the reader's own time zone, or null until the browser has taken the page over:
 * the server's zone is not the reader's, and the two would draw different text.
 */
export function useLocalTime(iso: string | null | undefined): string | null {
  const hydrated = useHydrated();
  return hydrated && iso ? formatTime(iso) : null;
}

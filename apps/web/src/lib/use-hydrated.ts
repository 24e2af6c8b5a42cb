import { createElement, Suspense, useSyncExternalStore, type ReactNode } from 'react';

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
 * A part whose code loads on its own, shown once the page is the app's and its code is in; its
 * fallback (a placeholder holding its room, or nothing) until then, the server's render included.
 */
export function LoadedWhenHydrated({
  fallback = null,
  children,
}: {
  fallback?: ReactNode;
  children: ReactNode;
}) {
  return useHydrated() ? createElement(Suspense, { fallback }, children) : fallback;
}

/**
 * "4:05 PM" in the reader's own time zone, or null until the browser has taken the page over:
 * the server's zone is not the reader's, and the two would draw different text.
 */
export function useLocalTime(iso: string | null | undefined): string | null {
  const hydrated = useHydrated();
  return hydrated && iso ? formatTime(iso) : null;
}

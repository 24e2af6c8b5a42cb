/**
 * Loads the code of the page at a path, so a link followed renders it without the full-page
 * "Loading…" between the pages. The router fills it in (router.tsx): a page importing the router
 * itself would import its own importer.
 */
let preloader: (pathname: string) => Promise<void> = () => Promise.resolve();

export function setRoutePreloader(preload: (pathname: string) => Promise<void>) {
  preloader = preload;
}

/** Loads the page's code ahead of a click (on pointing at a link, or focusing it). */
export function preloadPage(pathname: string): void {
  // A failed load is tried again when the page renders.
  preloader(pathname).catch(() => undefined);
}

import { useEffect } from 'react';

/**
 * Marks the page as interactive (`<html data-hydrated>`) once it is the app's: a page rendered
 * ahead shows before its script has run, early-clicks.ts makes held clicks again then, and
 * browser tests wait for it. The layout renders it after the page; the error boundary renders it
 * too, or a page that failed would leave every button held for good.
 */
export function MarkInteractive() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return null;
}

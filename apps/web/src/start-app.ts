/**
 * Starts the app on a prerendered page once the page has painted (see scripts/prerender.mjs):
 * its tag names the entry module (data-entry) and the modules to fetch with it (data-preload).
 */
const loader = document.querySelector<HTMLScriptElement>('script[data-entry]');

function add(tag: 'link' | 'script', attributes: Partial<HTMLLinkElement & HTMLScriptElement>) {
  document.head.append(Object.assign(document.createElement(tag), attributes, { crossOrigin: '' }));
}

function start() {
  for (const href of loader?.dataset.preload?.split(' ') ?? [])
    add('link', { rel: 'modulepreload', href });
  add('script', { type: 'module', src: loader?.dataset.entry ?? '' });
}

// A tab opened in the background does not paint until it is shown, so it starts at once.
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start));
else start();

import { lazy, type ComponentType } from 'react';

export interface LazyWithPreload {
  (): React.JSX.Element;
  /** Loads the code; once it has resolved, the component renders without suspending. */
  preload: () => Promise<void>;
}

/** Code a render asked for and that has not arrived yet. */
const inFlight = new Set<Promise<void>>();

/**
 * Settles once the code asked for so far has loaded (or failed): the server renders a page again
 * after this, not after a guess at how long a chunk takes on a busy machine.
 */
export const codeInFlight = () => Promise.allSettled([...inFlight]);

/**
 * Like React.lazy, but the code can be loaded ahead of rendering: the prerender loads it before
 * `renderToString`, and the browser before hydrating, so both render the component itself rather
 * than a Suspense fallback. Takes components without props (pages and page parts).
 */
export function lazyWithPreload(load: () => Promise<{ default: ComponentType }>): LazyWithPreload {
  let Loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;

  const preload = () => {
    if (!loading) {
      const started = load().then(
        (module) => {
          Loaded = module.default;
        },
        (error: unknown) => {
          // Let a later render try again, e.g. after the connection comes back.
          loading = undefined;
          throw error;
        },
      );
      inFlight.add(started);
      const done = () => inFlight.delete(started);
      started.then(done, done);
      loading = started;
    }
    return loading;
  };

  const LazyComponent = lazy(() => preload().then(() => ({ default: Loaded as ComponentType })));

  function Component() {
    return Loaded ? <Loaded /> : <LazyComponent />;
  }
  Component.preload = preload;
  return Component;
}

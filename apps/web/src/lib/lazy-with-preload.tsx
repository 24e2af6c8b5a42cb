import { lazy, useState, type ComponentType } from 'react';

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
export function lazyWithPreload(
  load: () => Promise<{ default: ComponentType }>,
  /** React.lazy; a test passes a stand-in. */
  makeLazy: typeof lazy = lazy,
): LazyWithPreload {
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

  const LazyComponent = makeLazy(() =>
    preload().then(() => ({ default: Loaded as ComponentType })),
  );

  function Component() {
    // Chosen at the first render and kept: React can commit <LazyComponent /> drawn before the
    // code came (it replays only the part that waited), and <Loaded /> at a later render would be
    // another component to it, which mounts the page afresh, its state and focus lost (My cars'
    // search box after Clear, at the first change of the address's query after a load).
    const [Shown] = useState<ComponentType>(() => Loaded ?? LazyComponent);
    return <Shown />;
  }
  Component.preload = preload;
  return Component;
}

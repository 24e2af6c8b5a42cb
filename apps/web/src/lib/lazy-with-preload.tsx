import { lazy, type ComponentType } from 'react';

export interface LazyWithPreload {
  (): React.JSX.Element;
  /** Loads the code; once it has resolved, the component renders without suspending. */
  preload: () => Promise<void>;
}

/**
 * Like React.lazy, but the code can be loaded ahead of rendering: the prerender loads it before
 * `renderToString`, and the browser before hydrating, so both render the component itself rather
 * than a Suspense fallback. Takes components without props (pages and page parts).
 */
export function lazyWithPreload(load: () => Promise<{ default: ComponentType }>): LazyWithPreload {
  let Loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;

  const preload = () => {
    loading ??= load().then(
      (module) => {
        Loaded = module.default;
      },
      (error: unknown) => {
        // Let a later render try again, e.g. after the connection comes back.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };

  const LazyComponent = lazy(() => preload().then(() => ({ default: Loaded as ComponentType })));

  function Component() {
    return Loaded ? <Loaded /> : <LazyComponent />;
  }
  Component.preload = preload;
  return Component;
}

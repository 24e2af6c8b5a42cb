import { useCallback, useState } from 'react';

/**
 * Whether an element has come within a screen of view, for a part that loads its data and code
 * only then (the home page's Advertised section, a car's similar cars and payment calculator).
 * Returns the callback ref to put on the element, and `near`, which stays true once it is.
 */
export function useNearView<T extends Element = HTMLElement>(): [
  ref: (element: T | null) => (() => void) | undefined,
  near: boolean,
] {
  const [near, setNear] = useState(false);
  const ref = useCallback((element: T | null) => {
    if (!element) return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry?.isIntersecting) setNear(true);
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, near];
}

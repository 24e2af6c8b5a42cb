import {
  createContext,
  useContext,
  useEffect,
  useRef,
  type ReactNode,
  type RefObject,
} from 'react';
import { useLocation } from 'react-router';

import { siteName } from '../config/site';

/** The home page's title, and the description of pages that have none of their own. */
const siteTitle = `${siteName}: buy and sell used cars, easily`;
const siteDescription = `${siteName} is an easy, fast way to buy and sell used cars. Browse cars by kind, book the one you like and pay by card.`;

export interface PageMeta {
  /** The page's own title; the site name is added. Leave out for the site's home title. */
  title?: string;
  description?: string;
}

export interface ResolvedPageMeta {
  title: string;
  description: string;
}

export function resolvePageMeta(meta: PageMeta): ResolvedPageMeta {
  return {
    title: meta.title ? `${meta.title} | ${siteName}` : siteTitle,
    description: meta.description ?? siteDescription,
  };
}

/** Receives the page's title and description while a page is prerendered (see entry-server). */
export type PageMetaReporter = (meta: ResolvedPageMeta) => void;

const PageMetaContext = createContext<PageMetaReporter | null>(null);

export function PageMetaProvider({
  report,
  children,
}: {
  report: PageMetaReporter;
  children: ReactNode;
}) {
  return <PageMetaContext value={report}>{children}</PageMetaContext>;
}

/**
 * What every page does: sets the document's title and meta description, and scrolls to the
 * element named by the URL's #hash once the page has rendered (the browser cannot do that itself
 * when the page arrives after a client-side navigation).
 */
export function usePage(meta: PageMeta): void {
  const { title, description } = resolvePageMeta(meta);
  const report = useContext(PageMetaContext);
  // Only the prerender provides a reporter; effects do not run there.
  report?.({ title, description });

  useEffect(() => {
    document.title = title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [title, description]);

  const { hash } = useLocation();
  useEffect(() => {
    const target = hash && document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    target.scrollIntoView();
    // Move focus there too, so keyboard and screen-reader users continue from the same place.
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  }, [hash]);
}

/**
 * For the layout: after moving to another page, start at its top and move focus to its main
 * element, as a full page load would; screen readers then read the new page rather than staying
 * on the link. A #hash is left to the page (usePage).
 */
export function useNavigationFocus(main: RefObject<HTMLElement | null>): void {
  const { pathname, hash } = useLocation();
  const previousPath = useRef(pathname);
  useEffect(() => {
    if (previousPath.current === pathname) return;
    previousPath.current = pathname;
    if (hash) return;
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [pathname, hash, main]);
}

import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';

import { ErrorBoundary } from '../../components/ui/error-boundary';
import { PageLoading } from '../../components/ui/page-loading';
import { useNavigationFocus } from '../../lib/page';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

export function PublicLayout() {
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);

  // Marks the page as interactive: a prerendered page shows before its script has run, and
  // browser tests wait for this before using buttons.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);

  useNavigationFocus(mainRef);

  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main" className="skip-link button button-primary">
        Skip to main content
      </a>
      <SiteHeader />
      <main id="main" ref={mainRef} tabIndex={-1} className="flex-1">
        <ErrorBoundary key={pathname}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <SiteFooter />
    </div>
  );
}

import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';

import { ErrorBoundary } from '../../components/ui/error-boundary';
import { PageLoading } from '../../components/ui/page-loading';
import { useSession } from '../../features/auth/use-session';
import { lazyWithPreload } from '../../lib/lazy-with-preload';
import { useNavigationFocus } from '../../lib/page';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

// Loaded only while someone is signed in: their bearer token and the checks of spec section 9.
const SessionKeeper = lazyWithPreload(
  () => import('../../features/auth/components/session-keeper'),
);

/**
 * Marks the page as interactive once the page itself (inside the layout's Suspense boundary,
 * which React takes over after the layout) is the app's: a page rendered ahead shows before its
 * script has run, early-clicks.ts makes held clicks again then, and browser tests wait for it.
 */
function MarkInteractive() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return null;
}

export function PublicLayout() {
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);

  useNavigationFocus(mainRef);
  const { isSignedIn } = useSession();

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
            <MarkInteractive />
          </Suspense>
        </ErrorBoundary>
      </main>
      <SiteFooter />
      {isSignedIn && (
        <Suspense>
          <SessionKeeper />
        </Suspense>
      )}
    </div>
  );
}

import { Suspense, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';

import { ErrorBoundary } from '../../components/ui/error-boundary';
import { PageLoading } from '../../components/ui/page-loading';
import { useSession } from '../../features/auth/use-session';
import { lazyWithPreload } from '../../lib/lazy-with-preload';
import { MarkInteractive } from '../../lib/mark-interactive';
import { useNavigationFocus } from '../../lib/page';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

// Loaded only while someone is signed in: their bearer token and the checks of spec section 9.
const SessionKeeper = lazyWithPreload(
  () => import('../../features/auth/components/session-keeper'),
);

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
            {/* After the page: React takes the layout over first and the page a moment later. The
                dashboard's page is in a boundary of its own, after which its layout marks. */}
            {!pathname.startsWith('/dashboard') && <MarkInteractive />}
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

import {
  Suspense,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type KeyboardEvent,
} from 'react';
import { Route, Routes, useLocation } from 'react-router';

import { ErrorBoundary } from '../../components/ui/error-boundary';
import { CloseIcon, MenuIcon } from '../../components/ui/icons';
import { PageLoading } from '../../components/ui/page-loading';
import { RequireAuth } from '../../features/auth/components/require-auth';
import { RequireRole } from '../../features/auth/components/require-role';
import { rolesName } from '../../features/auth/roles';
import { useFinishGoogleSignIn } from '../../features/auth/use-finish-google-sign-in';
import { useSession } from '../../features/auth/use-session';
import { VerifyEmailBanner } from '../../features/account/components/verify-email-banner';
import { DashboardMenu } from '../../features/dashboard/components/dashboard-menu';
import { focusWhenShown } from '../../lib/focus-when-shown';
import { lazyWithPreload } from '../../lib/lazy-with-preload';
import { MarkInteractive } from '../../lib/mark-interactive';
import NotFoundRoute from '../routes/not-found';
import { dashboardRoutes } from '../routes/dashboard/pages';

type PageModule = { default: ComponentType };
const pageFiles = import.meta.glob<PageModule>('../routes/dashboard/*.tsx');

/** The dashboard's pages, each with its file's code loaded lazily. */
const pages = dashboardRoutes.map(({ path, file, roles }) => {
  const load = pageFiles[`../routes/dashboard/${file}.tsx`];
  if (!load) throw new Error(`No file app/routes/dashboard/${file}.tsx for /dashboard/${path}`);
  return { path, roles, Page: lazyWithPreload(load) };
});

function Dashboard() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  useFinishGoogleSignIn();

  // On phones the menu covers the page: focus goes into it when it opens.
  useEffect(() => {
    if (menuOpen && closeButton.current) focusWhenShown(closeButton.current, openButton.current);
  }, [menuOpen]);

  function closeMenu() {
    setMenuOpen(false);
    openButton.current?.focus();
  }

  function handleKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape' && menuOpen) closeMenu();
  }

  if (!user) return null;
  return (
    <div className="drawer lg:drawer-open min-h-[calc(100dvh-4rem)]">
      {/* daisyUI's drawer opens with this checkbox; the buttons below drive it. */}
      <input
        id="dashboard-drawer"
        type="checkbox"
        className="drawer-toggle"
        checked={menuOpen}
        onChange={(event) => setMenuOpen(event.target.checked)}
        tabIndex={-1}
        aria-hidden="true"
      />
      {/* Before the page, so that the keyboard reaches the menu first, as the eye does. */}
      <div className="drawer-side dashboard-side" onKeyDown={handleKeyDown}>
        <div className="drawer-overlay" aria-hidden="true" onClick={closeMenu} />
        <nav
          id="dashboard-menu"
          aria-label="Dashboard"
          className="min-h-full w-72 border-r border-base-300 bg-base-200 py-4"
        >
          <div className="flex justify-end px-2 lg:hidden">
            <button
              ref={closeButton}
              type="button"
              className="button button-ghost button-square"
              onClick={closeMenu}
            >
              <CloseIcon />
              <span className="sr-only">Close the dashboard menu</span>
            </button>
          </div>
          <DashboardMenu
            name={user.name}
            roles={user.roles}
            rolesName={rolesName(user.roles)}
            onNavigate={() => setMenuOpen(false)}
          />
        </nav>
      </div>
      <div className="drawer-content px-4 py-6 sm:px-6 lg:px-10 lg:py-10">
        <button
          ref={openButton}
          type="button"
          className="button button-outline button-sm mb-6 lg:hidden print:hidden"
          aria-expanded={menuOpen}
          aria-controls="dashboard-menu"
          onClick={() => setMenuOpen(true)}
        >
          <MenuIcon width={20} height={20} />
          Dashboard menu
        </button>
        <VerifyEmailBanner />
        <ErrorBoundary key={pathname}>
          <Suspense fallback={<PageLoading />}>
            <Routes>
              {pages.map(({ path, roles, Page }) => (
                <Route
                  key={path}
                  index={path === ''}
                  path={path || undefined}
                  element={
                    <RequireRole roles={roles}>
                      <Page />
                    </RequireRole>
                  }
                />
              ))}
              <Route path="*" element={<NotFoundRoute />} />
            </Routes>
            {/* After the page (the public layout leaves the mark to this boundary): a click held
                on a drawn dashboard is made again only once its page is the app's. */}
            <MarkInteractive />
          </Suspense>
        </ErrorBoundary>
      </div>
    </div>
  );
}

/**
 * `/dashboard/*`: the side menu of the person's role (spec section 2) beside the page. The pages
 * are the router's dashboard entries; each is checked against the roles its entry lists.
 */
export default function DashboardLayout() {
  return (
    <RequireAuth>
      <Dashboard />
    </RequireAuth>
  );
}

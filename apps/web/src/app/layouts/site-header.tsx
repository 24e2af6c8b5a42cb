import { Suspense, useRef, useState, type KeyboardEvent } from 'react';
import { Link, NavLink, useLocation } from 'react-router';

import { CloseIcon, MenuIcon } from '../../components/ui/icons';
import { useSession } from '../../features/auth/use-session';
import { siteName } from '../../config/site';
import { lazyWithPreload } from '../../lib/lazy-with-preload';

// Dashboard (with the person's name) and Sign out: loaded once someone is signed in.
const SignedInLinks = lazyWithPreload(() => import('./signed-in-links'));
// Signed-in people only, after the page has painted: the home page's budget pays nothing for it.
const MessagesLink = lazyWithPreload(
  () => import('../../features/messages/components/header-messages-link'),
);

function AccountLinks() {
  const { isSignedIn } = useSession();
  // Back here after signing in; written out, as loginPath() would cost the home page's budget.
  const { pathname, search } = useLocation();

  if (!isSignedIn) {
    return (
      <li>
        <Link
          to={`/login?next=${encodeURIComponent(pathname + search)}`}
          className="button button-primary button-sm"
        >
          Login
        </Link>
      </li>
    );
  }
  return (
    <Suspense>
      <SignedInLinks />
    </Suspense>
  );
}

/**
 * A plain GET form to /cars?q=: it works before the app's script runs, and costs the home page's
 * up-front budget no script (the search page loads as a page of its own).
 */
function HeaderSearch() {
  return (
    <form role="search" action="/cars" className="header-search">
      <input type="search" name="q" aria-label="Search cars" placeholder="Search cars" />
    </form>
  );
}

export function SiteHeader() {
  const { isSignedIn } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  function handleKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape' && menuOpen) {
      setMenuOpen(false);
      menuButton.current?.focus();
    }
  }

  return (
    <header
      className="sticky top-0 z-30 border-b border-base-300 bg-base-100"
      onKeyDown={handleKeyDown}
    >
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6"
      >
        <Link to="/" className="brand-link" aria-label={`${siteName} home`}>
          <img src="/favicon.svg" alt="" width={32} height={32} className="size-8 shrink-0" />
          <span className="text-lg font-bold tracking-tight">{siteName}</span>
        </Link>
        <HeaderSearch />
        {isSignedIn && (
          <Suspense>
            <MessagesLink />
          </Suspense>
        )}

        {/* Phones show the links in a menu that this button opens; wider screens show them inline. */}
        <button
          ref={menuButton}
          type="button"
          className="button button-ghost button-square md:hidden"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <CloseIcon /> : <MenuIcon />}
          <span className="sr-only">{menuOpen ? 'Close menu' : 'Open menu'}</span>
        </button>

        {/* A click on a link or on Sign out also closes the menu. */}
        <ul
          id="site-menu"
          className={menuOpen ? 'site-menu site-menu-open' : 'site-menu'}
          onClick={() => setMenuOpen(false)}
        >
          <li>
            <NavLink to="/cars" className="nav-link">
              Find a car
            </NavLink>
          </li>
          <li>
            <NavLink to="/blog" className="nav-link">
              Blog
            </NavLink>
          </li>
          <AccountLinks />
        </ul>
      </nav>
    </header>
  );
}

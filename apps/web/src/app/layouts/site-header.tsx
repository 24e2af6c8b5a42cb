import { Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';

import { CloseIcon, MenuIcon, SearchIcon } from '../../components/ui/icons';
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
          Sign in
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
 * up-front budget no script (the search page loads as a page of its own). Phones show it below
 * the header when the search button opens it.
 */
function HeaderSearch({ open, onSearch }: { open: boolean; onSearch: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const field = input.current;
    if (!open || !field) return;
    // Opened on the search page: the field starts from the search shown.
    if (window.location.pathname === '/cars')
      field.value = new URLSearchParams(window.location.search).get('q') ?? '';
    field.focus();
  }, [open]);
  return (
    <form
      id="header-search"
      role="search"
      action="/cars"
      className={open ? 'header-search header-search-open' : 'header-search'}
      // Once the app runs, the search opens within it, and keyboard focus goes to the results'
      // count (a full load would leave it on the page's body, at its top).
      onSubmit={(event) => {
        event.preventDefault();
        const q = input.current?.value ?? '';
        void navigate(`/cars?${new URLSearchParams({ q }).toString()}`, {
          state: { focusResults: true },
        });
        onSearch();
      }}
    >
      <input
        ref={input}
        type="search"
        name="q"
        aria-label="Search cars"
        placeholder="Search cars"
      />
    </form>
  );
}

export function SiteHeader() {
  const { isSignedIn } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const searchButton = useRef<HTMLButtonElement>(null);

  function handleKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape' && menuOpen) {
      setMenuOpen(false);
      menuButton.current?.focus();
    } else if (event.key === 'Escape' && searchOpen) {
      setSearchOpen(false);
      searchButton.current?.focus();
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
        <Link to="/" className="brand-link max-md:mr-auto" aria-label={`${siteName} home`}>
          <img src="/favicon.svg" alt="" width={32} height={32} className="size-8 shrink-0" />
          <span className="text-lg font-bold tracking-tight">{siteName}</span>
        </Link>
        <HeaderSearch open={searchOpen} onSearch={() => setSearchOpen(false)} />
        {isSignedIn && (
          <Suspense>
            <MessagesLink />
          </Suspense>
        )}

        {/* Phones open the search and the links below the header, one at a time. */}
        <button
          ref={searchButton}
          type="button"
          className="button button-ghost button-square md:hidden"
          aria-expanded={searchOpen}
          aria-controls="header-search"
          onClick={() => {
            setSearchOpen((open) => !open);
            setMenuOpen(false);
          }}
        >
          <SearchIcon />
          <span className="sr-only">Search cars</span>
        </button>
        <button
          ref={menuButton}
          type="button"
          className="button button-ghost button-square md:hidden"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          onClick={() => {
            setMenuOpen((open) => !open);
            setSearchOpen(false);
          }}
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

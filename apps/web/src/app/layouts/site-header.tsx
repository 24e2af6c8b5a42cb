import { useRef, useState, type KeyboardEvent } from 'react';
import { Link, NavLink } from 'react-router';

import { CloseIcon, MenuIcon } from '../../components/ui/icons';
import { useSignOut } from '../../features/auth/use-sign-out';
import { useSession } from '../../features/auth/use-session';
import { siteName } from '../../config/site';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `nav-link${isActive ? ' nav-link-active' : ''}`;

function AccountLinks() {
  const { isSignedIn } = useSession();
  const { signOut, isPending } = useSignOut();

  if (!isSignedIn) {
    return (
      <li>
        <Link to="/login" className="button button-primary button-sm">
          Login
        </Link>
      </li>
    );
  }
  return (
    <>
      <li>
        <NavLink to="/dashboard" className={navLinkClass}>
          Dashboard
        </NavLink>
      </li>
      <li>
        <button
          type="button"
          className="button button-outline button-sm"
          disabled={isPending}
          onClick={() => void signOut()}
        >
          {isPending ? 'Signing out…' : 'Sign out'}
        </button>
      </li>
    </>
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
            <NavLink to="/cars" className={navLinkClass}>
              Find a car
            </NavLink>
          </li>
          <li>
            <NavLink to="/blog" className={navLinkClass}>
              Blog
            </NavLink>
          </li>
          <AccountLinks />
        </ul>
      </nav>
    </header>
  );
}

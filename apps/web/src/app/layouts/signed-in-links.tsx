import { NavLink } from 'react-router';

import { useSession } from '../../features/auth/use-session';
import { useSignOut } from '../../features/auth/use-sign-out';

/**
 * The header's links for someone signed in: their dashboard, under their name, and Sign out.
 * Loaded only once someone is signed in, so the home page's first visitors do not pay for it.
 */
export default function SignedInLinks() {
  const { user } = useSession();
  const { signOut, isPending } = useSignOut();
  if (!user) return null;
  return (
    <>
      <li>
        {/* The name under the word, so it takes no room the menu needs on a tablet; long names
            end in an ellipsis. */}
        <NavLink
          to="/dashboard"
          className="nav-link flex-col items-start justify-center leading-tight"
        >
          Dashboard
          <span className="truncate text-xs" style={{ maxWidth: '8rem' }}>
            {user.name}
          </span>
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

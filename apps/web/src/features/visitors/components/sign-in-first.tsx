import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { Dialog } from '../../../components/ui/dialog';

/** What a visitor signed out started on a car's page, finished there once they have an account. */
export type CarAction = 'save' | 'ask' | 'book';

/** The search parameter that carries a `CarAction` back to the car's page. */
export const CAR_ACTION_PARAM = 'then';

/** The car's page that finishes `action` (decision 028): where signing in or up returns to. */
export function carActionPath(carId: string, action: CarAction): string {
  return `/listing/${encodeURIComponent(carId)}?${CAR_ACTION_PARAM}=${action}`;
}

/**
 * The sign-in or register page, returning to `next` (a path of this site, made above), as auth's
 * loginPath() writes it: written out, since importing auth's index here would make the home page
 * load this feature's code with the heart's (decision 028).
 */
const withNext = (page: '/login' | '/register', next: string) =>
  `${page}?next=${encodeURIComponent(next).replace(/%2F/gi, '/')}`;

/**
 * For a visitor without an account (where the site lets them browse): a button that looks like
 * the one it stands for (Save, Book now, Ask the seller) and opens a dialog asking them to sign in
 * or create an account, either of which brings them back to `next` to finish what they started.
 */
export function SignInFirstButton({
  className,
  label,
  children,
  title,
  why,
  next,
}: {
  className: string;
  /** The button's accessible name, when its content is an icon. */
  label?: string;
  children: ReactNode;
  /** The dialog's title, e.g. "Save this car". */
  title: string;
  /** One sentence on what an account lets them do here. */
  why: string;
  next: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={label}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {children}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={title} description={why}>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Link
            to={withNext('/register', next)}
            className="button button-primary sm:flex-1"
            data-autofocus
          >
            Create an account
          </Link>
          <Link to={withNext('/login', next)} className="button button-outline sm:flex-1">
            Sign in
          </Link>
        </div>
        <button
          type="button"
          className="text-link mx-auto mt-4 block"
          onClick={() => setOpen(false)}
        >
          Not now
        </button>
      </Dialog>
    </>
  );
}

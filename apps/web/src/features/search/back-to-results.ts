import { useEffect, useState, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * "Back to results" on a car page opened from a search, or from such a car page's similar cars.
 * A click on a result leaves the search's address here (and the search's position in history);
 * the car page takes it for its own history entry (known by its position in history, which a
 * reload keeps), so Back to results still works after a reload or a page's own replace. A click
 * from that car page to another car passes the same search on. Session storage: one tab's, gone
 * with it.
 */
const PENDING = 'search-origin';
const takenAt = (index: number) => `search-origin:${index}`;

interface Origin {
  /** The car page's path. */
  car: string;
  /** The search's path and query. */
  search: string;
  /** The search's position in the tab's history (absent in what older pages stored). */
  searchIndex?: number;
}

function read(key: string): Origin | null {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? 'null') as Origin | null;
  } catch {
    return null;
  }
}

/** This entry's position in the tab's history (React Router keeps it in history.state). */
const historyIndex = () => (window.history.state as { idx?: number } | null)?.idx;

/** The car page a click goes to, when it is on a link to one. */
function carLinkOf(event: MouseEvent): string | null {
  const link = (event.target as Element).closest('a');
  return link?.pathname.startsWith('/listing/') ? link.pathname : null;
}

/** On the search results (a capture listener): a click on a car's link remembers the search. */
export function rememberSearchOf(event: MouseEvent) {
  const car = carLinkOf(event);
  if (!car) return;
  const search = window.location.pathname + window.location.search;
  const origin: Origin = { car, search, searchIndex: historyIndex() };
  sessionStorage.setItem(PENDING, JSON.stringify(origin));
}

/**
 * On a car page: the search a click on its results led here from, or null. `back` returns to it
 * as the browser's Back does (its filters, sort and scroll), going back as many entries as the
 * car pages opened since; without the search's position, one entry (the search right behind);
 * otherwise, as in a new tab, the link opens the search's address. `passOn` (a capture listener
 * on the car page) hands the search to the next car opened from this one.
 */
export function useSearchOrigin(): {
  search: string;
  back: (event: MouseEvent) => void;
  passOn: (event: MouseEvent) => void;
} | null {
  const { pathname, key } = useLocation();
  const navigate = useNavigate();
  const [origin, setOrigin] = useState<Origin | null>(null);
  useEffect(() => {
    const index = historyIndex();
    const pending = read(PENDING);
    if (index !== undefined && pending?.car === pathname) {
      sessionStorage.setItem(takenAt(index), JSON.stringify(pending));
      sessionStorage.removeItem(PENDING);
    }
    const taken = index === undefined ? null : read(takenAt(index));
    setOrigin(taken?.car === pathname ? taken : null);
  }, [pathname, key]);
  if (!origin) return null;
  return {
    search: origin.search,
    back: (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
        return;
      }
      const here = historyIndex() ?? 0;
      const steps = origin.searchIndex === undefined ? 1 : here - origin.searchIndex;
      if (steps > 0 && here - steps >= 0) {
        event.preventDefault();
        void navigate(-steps);
      }
    },
    passOn: (event) => {
      const car = carLinkOf(event);
      if (!car || car === pathname) return;
      sessionStorage.setItem(PENDING, JSON.stringify({ ...origin, car }));
    },
  };
}

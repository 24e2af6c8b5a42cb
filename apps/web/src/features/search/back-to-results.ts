import { useEffect, useState, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * "Back to results" on a car page opened from a search. A click on a result leaves the search's
 * address here; the car page takes it for its own history entry (known by its position in
 * history, which a reload keeps), so Back to results still works after a reload or a page's
 * own replace. Session storage: one tab's, gone with it.
 */
const PENDING = 'search-origin';
const takenAt = (index: number) => `search-origin:${index}`;

interface Origin {
  /** The car page's path. */
  car: string;
  /** The search's path and query. */
  search: string;
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

/** On the search results (a capture listener): a click on a car's link remembers the search. */
export function rememberSearchOf(event: MouseEvent) {
  const link = (event.target as Element).closest('a');
  if (!link?.pathname.startsWith('/listing/')) return;
  const search = window.location.pathname + window.location.search;
  sessionStorage.setItem(PENDING, JSON.stringify({ car: link.pathname, search }));
}

/**
 * On a car page: the search a click on its results led here from, or null. `back` returns to it
 * as the browser's Back does (its filters, sort and scroll) when it is the entry right behind
 * this one; otherwise, as in a new tab, the link opens the search's address.
 */
export function useSearchOrigin(): { search: string; back: (event: MouseEvent) => void } | null {
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
      if ((historyIndex() ?? 0) > 0) {
        event.preventDefault();
        void navigate(-1);
      }
    },
  };
}

import {
  MY_LISTING_SORTS,
  MY_LISTING_STATUSES,
  MY_LISTINGS_SEARCH_MAX,
  hasControlCharacter,
  type MyListingCounts,
  type MyListingSort,
  type MyListingStatus,
} from '@carmarket/shared';
import { useCallback, useEffect, useId, useRef, useState } from 'react';

import { CloseIcon } from '../../../components/ui/icons';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import type { MyCarsView } from '../api/my-listings';
import { listingStatusLabel } from './car-labels';

const MY_CARS_SORTS: Record<MyListingSort, string> = {
  newest: 'Newest listed',
  oldest: 'Oldest listed',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  views: 'Most viewed (30 days)',
};

/** My cars' view as the address gives it; a value it does not know is left out. */
export function myCarsViewOf(params: URLSearchParams): MyCarsView {
  const status = params.get('status');
  const sort = params.get('sort');
  const q = (params.get('q') ?? '').trim().slice(0, MY_LISTINGS_SEARCH_MAX);
  return {
    status: MY_LISTING_STATUSES.find((known) => known === status) ?? null,
    // The server refuses control characters; no one types them.
    q: hasControlCharacter(q) ? '' : q,
    sort: MY_LISTING_SORTS.find((known) => known === sort) ?? 'newest',
  };
}

/** "On sale", "Sold": what a tab of My cars is called. */
const statusTabLabel = (status: MyListingStatus | null) =>
  status ? listingStatusLabel(status) : 'All';

/**
 * The search box: searches once the seller pauses typing; a clear button while it holds text. It
 * follows the address too, when Back changes the search.
 */
function SearchBox({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [search, setSearch] = useState(q);
  const debounced = useDebouncedValue(search.trim());

  const lastSearched = useRef(q);
  const settled = debounced === search.trim();
  useEffect(() => {
    // Only a value typed and left alone: not one the box held before Clear or Back.
    if (!settled || debounced === lastSearched.current) return;
    lastSearched.current = debounced;
    onSearch(debounced);
  }, [debounced, settled, onSearch]);

  useEffect(() => {
    if (q === lastSearched.current) return;
    lastSearched.current = q;
    setSearch(q);
  }, [q]);

  function handleClear() {
    setSearch('');
    lastSearched.current = '';
    onSearch('');
    inputRef.current?.focus();
  }

  return (
    <form
      role="search"
      // Named apart from the header's search: two unnamed search landmarks cannot be told apart.
      aria-label="Search your cars"
      className="w-full max-w-md"
      onSubmit={(event) => {
        event.preventDefault();
        // Enter searches at once.
        const now = search.trim();
        if (now !== lastSearched.current) {
          lastSearched.current = now;
          onSearch(now);
        }
      }}
    >
      <label htmlFor={id} className="field-label">
        Search your cars
      </label>
      <div className="relative">
        <input
          ref={inputRef}
          id={id}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Name, make, model or VIN"
          maxLength={MY_LISTINGS_SEARCH_MAX}
          className="input w-full pr-11 [&::-webkit-search-cancel-button]:hidden"
          autoComplete="off"
          spellCheck={false}
        />
        {search && (
          <button
            type="button"
            onClick={handleClear}
            className="absolute inset-y-0 right-0 grid w-11 place-items-center rounded-r-field text-muted hover:text-base-content"
            aria-label="Clear the search"
          >
            <CloseIcon className="size-4" aria-hidden="true" />
          </button>
        )}
      </div>
    </form>
  );
}

/**
 * Above My cars: a search box, the order, and a tab for each state with how many cars it holds
 * (for the search). The tabs are toggle buttons: one is pressed, and Tab reaches each.
 */
export function MyCarsFilters({
  view,
  counts,
  onChange,
}: {
  view: MyCarsView;
  counts: MyListingCounts | undefined;
  /** A change to the view; a search replaces the address's entry, a tab or an order adds one. */
  onChange: (change: Partial<MyCarsView>, options?: { replace?: boolean }) => void;
}) {
  const sortId = useId();
  const handleSearch = useCallback((q: string) => onChange({ q }, { replace: true }), [onChange]);

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <SearchBox q={view.q} onSearch={handleSearch} />
        <div className="flex items-center gap-2">
          <label htmlFor={sortId} className="text-sm font-semibold">
            Sort
          </label>
          <select
            id={sortId}
            className="select select-sm w-auto"
            value={view.sort}
            onChange={(event) => onChange({ sort: event.target.value as MyListingSort })}
          >
            {MY_LISTING_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {MY_CARS_SORTS[sort]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div role="group" aria-label="Show cars by status" className="flex flex-wrap gap-2">
        {[null, ...MY_LISTING_STATUSES].map((status) => {
          const count = counts?.[status ?? 'all'];
          const pressed = view.status === status;
          return (
            <button
              key={status ?? 'all'}
              type="button"
              aria-pressed={pressed}
              onClick={() => {
                if (!pressed) onChange({ status });
              }}
              className="inline-flex min-h-9 items-center gap-2 rounded-full border border-base-300 bg-base-100 px-4 text-sm font-semibold hover:bg-base-200 aria-pressed:border-primary aria-pressed:bg-primary aria-pressed:text-primary-content"
            >
              {statusTabLabel(status)}
              {/* A space: the button's name reads "Sold 2", not "Sold2". */}
              {count !== undefined && ' '}
              {count !== undefined && (
                <span className="min-w-5 rounded-full bg-base-200 px-1.5 text-center text-xs text-base-content tabular-nums">
                  {new Intl.NumberFormat('en-US').format(count)}
                </span>
              )}
            </button>
          );
        })}
      </div>
    </div>
  );
}

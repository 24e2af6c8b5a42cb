import type { SearchItem, SearchSort } from '@carmarket/shared';
import {
  startTransition,
  useDeferredValue,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useLocation } from 'react-router';

import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/api-client';
import { EmptyState, PageState } from '../../../components/ui/page-state';
import { LoadMore } from '../../../components/ui/load-more';
import { usePage } from '../../../lib/page';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useQueryParams } from '../../../lib/use-query-params';
import { searchWaitNote, useSearchCars, useSearchTotals } from '../api/search-cars';
import { rememberSearchOf } from '../back-to-results';
import { FilterPanel, withoutSettled, type Drafts } from '../components/filter-panel';
import { savedQueryOf, suggestSearchName } from '../saved-search';
import {
  apiQueryOf,
  chipsOf,
  clearFilters,
  invertedRanges,
  partOfField,
  removeChip,
  setValue,
  SORTS,
  sortOf,
} from '../search-state';

const count = new Intl.NumberFormat('en-US');
/** "12 cars", "1 car", "about 120,000 cars". */
const carsText = (
  { total, totalIsEstimate }: { total: number; totalIsEstimate: boolean },
  about = 'about ',
) => `${totalIsEstimate ? about : ''}${count.format(total)} ${total === 1 ? 'car' : 'cars'}`;
const gridClass = 'grid gap-6 sm:grid-cols-2 xl:grid-cols-3';

/** Where the page was scrolled, per history entry, so Back returns to the same car. */
function useScrollMemory(ready: boolean) {
  const location = useLocation();
  // Every page opened by a full load is the router's entry "default": told apart by its address,
  // or a search typed or bookmarked would open where another was left.
  const key =
    location.key === 'default' ? `default:${location.pathname}${location.search}` : location.key;
  const restored = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!ready || restored.current === key) return;
    restored.current = key;
    const saved = sessionStorage.getItem(`scroll:${key}`);
    if (saved) window.scrollTo(0, Number(saved));
  }, [key, ready]);
  useEffect(() => {
    const save = () => sessionStorage.setItem(`scroll:${key}`, String(window.scrollY));
    window.addEventListener('scroll', save, { passive: true });
    return () => {
      save();
      window.removeEventListener('scroll', save);
    };
  }, [key]);
}

function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const settled = useDebouncedValue(text, 350);
  const id = useId();
  // Typing searches once the words settle; the address changes in place, not one entry per key.
  useEffect(() => {
    if (settled.trim() !== value.trim()) onSearch(settled.trim());
    // oxlint-disable-next-line react/exhaustive-deps -- only when the typed words settle
  }, [settled]);
  useEffect(() => setText(value), [value]);
  return (
    // Named: a second search landmark besides the header's (which wide screens show) needs one.
    <form
      role="search"
      // Named apart from the header's search: two unnamed search landmarks cannot be told apart.
      aria-label="Search within the results"
      className="flex-1"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}
    >
      <label htmlFor={id} className="sr-only">
        Search cars
      </label>
      <input
        id={id}
        type="search"
        className="input w-full"
        placeholder="Make, model or words, e.g. corolla"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
    </form>
  );
}

/** Cars drawn in the first step; the rest follow this many at a time. */
const DRAW_STEP = 6;

/**
 * How many of `count` cars to draw: a first few at once, then the rest a few at a time in
 * transitions, so no single task lays out a whole page of cards (Lighthouse's blocking time).
 */
function useDrawnInSteps(count: number): number {
  const [drawn, setDrawn] = useState(DRAW_STEP);
  useEffect(() => {
    if (drawn < count) startTransition(() => setDrawn((now) => now + DRAW_STEP));
  }, [drawn, count]);
  return drawn;
}

/** The search on screen, for a "Save this search" control. */
export interface SearchToSave {
  /** The query string to save (saved-search.ts). */
  query: string;
  /** A name for it, from its filters. */
  suggestedName: string;
}

/**
 * The search page. Cars are drawn by `renderCar` and `skeleton`, and "Save this search" by
 * `saveSearch`, which the route passes in from the listings, bookings and saved features
 * (features do not import each other).
 */
export function SearchPage({
  renderCar,
  skeleton,
  saveSearch,
  category,
  categoryName,
  header,
  title,
  nothingFoundExtra,
}: {
  renderCar: (car: SearchItem, index: number) => ReactNode;
  skeleton: ReactNode;
  saveSearch?: (search: SearchToSave) => ReactNode;
  /** A category page: the search within one category, which is not a filter one can remove. */
  category?: string;
  /** The category's name, once known, to start a saved search's name. */
  categoryName?: string | undefined;
  /** In place of the "Find a car" heading (a category's name and icon). */
  header?: ReactNode;
  /** The document title, when not "Find a car". */
  title?: string;
  /** Below "No cars match this search" (the person's recently viewed cars). */
  nothingFoundExtra?: ReactNode;
}) {
  const [params, setParams] = useQueryParams();
  const searched = category ? setValue(params, 'category', category) : params;
  const query = apiQueryOf(searched);
  const sort = sortOf(params);
  // A range the other way round (from a link) is not sent: the filters say what to put right.
  const inverted = invertedRanges((key) => searched.get(key));
  const sendable = Object.keys(inverted).length === 0;
  const {
    data,
    error,
    isPending,
    isError,
    isFetching,
    isPlaceholderData,
    refetch,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage,
    failureCount,
    failureReason,
  } = useSearchCars(query, sendable);
  const waitNote = isError ? null : searchWaitNote(failureCount, failureReason);
  // A filter the server refused (400 naming it): its message goes beside it, as an inverted one's.
  const refusal =
    error instanceof ApiError && error.status === 400 && error.field !== undefined ? error : null;
  const refusedPart = refusal ? partOfField[refusal.field!] : undefined;
  const filterErrors = refusedPart ? { [refusedPart]: refusal!.message, ...inverted } : inverted;
  const refused = !sendable || refusedPart !== undefined;
  const [filtersOpen, setFiltersOpen] = useState(false);
  // Range ends typed but not sent (From above To): kept here, so the Filters dialog's button
  // waits for them and they are still there when the dialog opens again.
  const [drafts, setDrafts] = useState<Drafts>({});
  useEffect(() => setDrafts((now) => withoutSettled(now, params)), [params]);
  const unsent = Object.keys(
    invertedRanges((k) => (k in drafts ? (drafts[k] ?? null) : params.get(k))),
  );
  const unsentId = useId();
  // Cars and facets render in a transition, which React splits into short tasks, so a page of
  // results never holds the main thread (and the skeletons stay up until they are drawn).
  const shown = useDeferredValue(data);
  const loading = isPending || shown === undefined;

  const first = shown?.pages[0];
  const cars = shown?.pages.flatMap((page) => page.items) ?? [];
  const drawn = useDrawnInSteps(cars.length);
  useScrollMemory(!loading && drawn >= cars.length);
  const facets = first?.facets;
  const totalText = refused
    ? 'Check the filters'
    : first
      ? carsText(first, 'About ')
      : 'Searching…';
  const chips = chipsOf(params);
  const q = params.get('q') ?? '';

  usePage({ title: title ?? (q ? `Cars matching “${q}”` : 'Find a car') });

  // Each change starts from the address as it is now: one made while the last still renders
  // (a navigation is a transition) must not undo it.
  const change = (update: (current: URLSearchParams) => URLSearchParams, replace = false) =>
    setParams(update, { replace });
  // A removed filter's button goes with it: keyboard focus moves to the count of the results it
  // changed, not to the top of the document.
  const countRef = useRef<HTMLHeadingElement>(null);
  const removeFilters = (update: (current: URLSearchParams) => URLSearchParams) => {
    change(update);
    countRef.current?.focus();
  };
  // A search from the header's field: focus comes to the count, not back to the page's body.
  const { key: entry, state: entryState } = useLocation();
  const focusResults = (entryState as { focusResults?: boolean } | null)?.focusResults === true;
  useEffect(() => {
    if (focusResults) countRef.current?.focus();
  }, [entry, focusResults]);

  // With nothing found, what each filter's removal would find: the empty state leads with it.
  const nothingFound = !loading && !isError && !refused && cars.length === 0;
  const relaxed = useSearchTotals(
    nothingFound ? chips.map((chip) => apiQueryOf(removeChip(searched, chip))) : [],
  );
  const relaxations = chips
    .map((chip, index) => ({ chip, found: relaxed.data?.[index] }))
    .sort((a, b) => (b.found?.total ?? -1) - (a.found?.total ?? -1));
  const best = relaxations[0];

  const results = refused ? (
    <div className="rounded-box border border-error bg-error-soft p-5">
      <p className="font-semibold">This search cannot run as it is.</p>
      {Object.values(filterErrors).map((text) => (
        <p key={text} className="mt-1 text-sm">
          {text}.
        </p>
      ))}
    </div>
  ) : (
    <PageState
      // The deferred page of cars: the skeletons stay up until the cars are drawn.
      query={{ data: shown, error, isPending: loading && !isError, isError, isFetching, refetch }}
      loading="Loading cars…"
      skeleton={
        <div className={gridClass}>
          {Array.from({ length: 6 }, (_, index) => (
            <div key={index}>{skeleton}</div>
          ))}
        </div>
      }
      what="the cars"
      isEmpty={() => cars.length === 0}
      empty={
        <>
          <EmptyState title="No cars match this search">
            {chips.length > 0 ? (
              <>
                <p className="mt-1 text-muted" aria-live="polite">
                  {best?.found && best.found.total > 0
                    ? `Without ${best.chip.label}, ${carsText(best.found)} would match.`
                    : 'Try without one of these:'}
                </p>
                <ul className="mt-4 flex flex-wrap justify-center gap-2">
                  {relaxations.map(({ chip, found }) => (
                    <li key={`${chip.key}=${chip.value}`}>
                      <button
                        type="button"
                        className="button button-outline button-sm"
                        onClick={() => removeFilters((current) => removeChip(current, chip))}
                      >
                        Remove {chip.label}
                        {found ? ` (${carsText(found)})` : ''}
                      </button>
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p className="mt-1 text-muted">Sellers add cars all the time; come back soon.</p>
            )}
          </EmptyState>
          {nothingFoundExtra}
        </>
      }
    >
      {() => (
        <>
          {/* A car opened from here offers "Back to results" (back-to-results.ts). */}
          <ul
            className={`${gridClass} ${isPlaceholderData ? 'opacity-60' : ''}`}
            onClickCapture={rememberSearchOf}
          >
            {cars.slice(0, drawn).map((car, index) => (
              <li key={car._id}>{renderCar(car, index)}</li>
            ))}
          </ul>
          <LoadMore
            shown={cars.length}
            total={totalText.toLowerCase()}
            hasMore={hasNextPage}
            loading={isFetchingNextPage}
            onMore={() => void fetchNextPage()}
          />
        </>
      )}
    </PageState>
  );

  const panel = (
    <FilterPanel
      params={params}
      facets={refused ? undefined : facets}
      errors={filterErrors}
      counting={!refused}
      onChange={(update) => change(update)}
      drafts={drafts}
      onDrafts={setDrafts}
    />
  );

  return (
    <section className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-10">
      {header ?? <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Find a car</h1>}
      <div className="mt-4 flex gap-3">
        <SearchBox
          value={q}
          onSearch={(text) => change((current) => setValue(current, 'q', text), true)}
        />
        <button
          type="button"
          className="button button-outline lg:hidden"
          onClick={() => setFiltersOpen(true)}
        >
          Filters{chips.length > 0 ? ` (${chips.length})` : ''}
        </button>
      </div>

      <div className="mt-6 lg:grid lg:grid-cols-[16rem_1fr] lg:gap-8">
        <aside aria-label="Filters" className="hidden lg:block">
          {panel}
        </aside>
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h2
              ref={countRef}
              tabIndex={-1}
              className="grow text-lg font-bold"
              aria-live="polite"
              aria-busy={isFetching && !isFetchingNextPage && !refused}
            >
              {totalText}
            </h2>
            {saveSearch?.({
              query: savedQueryOf(searched),
              suggestedName: suggestSearchName(params, categoryName),
            })}
            <div className="flex items-center gap-2">
              <label htmlFor="search-sort" className="text-sm font-semibold">
                Sort
              </label>
              <select
                id="search-sort"
                className="select select-sm"
                value={sort}
                onChange={(event) => {
                  const chosen = event.target.value;
                  change((current) => setValue(current, 'sort', chosen));
                }}
              >
                {(Object.keys(SORTS) as SearchSort[])
                  .filter(
                    (value) =>
                      (value !== 'relevance' || q) && (value !== 'distance' || params.get('near')),
                  )
                  .map((value) => (
                    <option key={value} value={value}>
                      {SORTS[value]}
                    </option>
                  ))}
              </select>
            </div>
          </div>
          {chips.length > 0 && (
            <ul className="mt-3 flex flex-wrap gap-2" aria-label="Filters in use">
              {chips.map((chip) => (
                <li key={`${chip.key}=${chip.value}`}>
                  <button
                    type="button"
                    className="inline-flex items-center gap-1 rounded-full bg-base-200 px-3 py-1 text-sm hover:bg-base-300"
                    onClick={() => removeFilters((current) => removeChip(current, chip))}
                  >
                    {chip.label}
                    <span aria-hidden="true">×</span>
                    <span className="sr-only">(remove)</span>
                  </button>
                </li>
              ))}
              <li>
                <button
                  type="button"
                  className="text-link px-2 py-1 text-sm"
                  onClick={() => removeFilters(clearFilters)}
                >
                  Clear all
                </button>
              </li>
            </ul>
          )}
          {waitNote && (
            <p role="status" className="mt-3 text-sm text-muted">
              {waitNote}
            </p>
          )}
          <div className="mt-5">{results}</div>
        </div>
      </div>

      <Dialog open={filtersOpen} onClose={() => setFiltersOpen(false)} title="Filters" wide>
        {panel}
        {/* Down to the box's edge: its padding below would show the filters scrolling under the bar. */}
        <div className="sticky -bottom-6 -mb-6 mt-4 flex flex-wrap gap-3 bg-base-100 pt-3 pb-6">
          {/* On a phone the filters cover the page: the note about the wait shows here too. */}
          {waitNote && (
            <p role="status" className="basis-full text-sm text-muted">
              {waitNote}
            </p>
          )}
          {/* Above both buttons: why Show is waiting. */}
          {unsent.length > 0 && (
            <p id={unsentId} className="basis-full text-sm text-error">
              Put the {unsent.join(' and ')} {unsent.length > 1 ? 'ranges' : 'range'} right to show
              the cars.
            </p>
          )}
          <button
            type="button"
            className="button button-outline flex-1"
            onClick={() => change(clearFilters)}
          >
            Clear all
          </button>
          <button
            type="button"
            className="button button-primary flex-1"
            disabled={unsent.length > 0}
            aria-describedby={unsent.length > 0 ? unsentId : undefined}
            onClick={() => setFiltersOpen(false)}
          >
            Show {first ? totalText.toLowerCase() : 'cars'}
          </button>
        </div>
      </Dialog>
    </section>
  );
}

import type { Facets } from '@carmarket/shared';
import {
  useEffect,
  useId,
  useState,
  type Dispatch,
  type ReactNode,
  type SetStateAction,
} from 'react';

import { toKm } from '../../../lib/units';
import {
  invertedRanges,
  labelOf,
  lengthUnit,
  money,
  PICKED_RADIUS_KM,
  setValue,
  toggleValue,
  type FilterErrors,
  type FilterPart,
  type ListFilter,
  type RangeFilter,
} from '../search-state';
import { PlacePicker } from './place-picker';

/**
 * Changes the search: from the address's query as it is now, which may be newer than the one
 * last drawn (a change still rendering), answers the next one.
 */
type Change = (update: (current: URLSearchParams) => URLSearchParams) => void;

const count = new Intl.NumberFormat('en-US');
/** Model years to choose from, next year's first (asked each time: a server runs for years). */
function modelYears(): number[] {
  const thisYear = new Date().getFullYear();
  return Array.from({ length: thisYear + 2 - 1990 }, (_, i) => thisYear + 1 - i);
}
// In the unit shown (lengthUnit); the address and the API take kilometres.
const MILEAGES = [10_000, 25_000, 50_000, 75_000, 100_000, 150_000, 200_000];
const RADII = [10, 25, 50, 100, 200, 500];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="border-t border-base-300 py-4 first:border-t-0 first:pt-0">
      <legend className="sr-only">{title}</legend>
      <p aria-hidden="true" className="mb-2 text-sm font-bold">
        {title}
      </p>
      {children}
    </fieldset>
  );
}

/** The facets whose checkboxes follow the place, in order, with their group's title. */
const LATER_CHECKLISTS: readonly (readonly [string, ListFilter])[] = [
  ['Body type', 'bodyType'],
  ['Fuel', 'fuel'],
  ['Gearbox', 'transmission'],
  ['Condition', 'condition'],
];

/** Checkboxes for the values of one facet, each with how many cars it would find. */
function Checklist({
  name,
  params,
  values,
  onChange,
  waiting,
  initiallyShown = 8,
}: {
  name: ListFilter;
  params: URLSearchParams;
  /** Undefined while the counts are on their way. */
  values: { value: string; count: number }[] | undefined;
  onChange: Change;
  /** What to say while there are no counts. */
  waiting: string;
  initiallyShown?: number;
}) {
  const [all, setAll] = useState(false);
  const chosen = params.getAll(name);
  if (!values) return <p className="text-sm text-muted">{waiting}</p>;
  // Values chosen come first, and stay listed even when no car matches them now, so they can be
  // unticked: another filter that lowers a chosen make's count must not push it out of sight.
  const listed = [
    ...values.filter((f) => chosen.includes(f.value)),
    ...chosen
      .filter((v) => !values.some((f) => f.value === v))
      .map((value) => ({ value, count: 0 })),
    ...values.filter((f) => !chosen.includes(f.value)),
  ];
  const shown = all ? listed : listed.slice(0, Math.max(initiallyShown, chosen.length));
  if (listed.length === 0) return <p className="text-sm text-muted">None among these cars.</p>;
  return (
    <>
      <ul className="space-y-1">
        {shown.map(({ value, count: n }) => (
          <li key={value}>
            <label className="flex cursor-pointer items-center gap-2 rounded-lg px-1 py-1 text-sm hover:bg-base-200">
              <input
                type="checkbox"
                className="checkbox checkbox-sm"
                checked={chosen.includes(value)}
                onChange={() => onChange((current) => toggleValue(current, name, value))}
              />
              <span className="flex-1">{labelOf(name, value)}</span>
              <span className="text-muted tabular-nums">{count.format(n)}</span>
            </label>
          </li>
        ))}
      </ul>
      {listed.length > shown.length && (
        <button type="button" className="text-link mt-1 text-sm" onClick={() => setAll(true)}>
          Show all {listed.length}
        </button>
      )}
    </>
  );
}

function Select({
  label,
  value,
  onChange,
  disabled = false,
  describedBy,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  /** The id of a message about this field: it is then marked invalid. */
  describedBy?: string | undefined;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="min-w-0 flex-1">
      <label htmlFor={id} className="mb-1 block text-xs font-semibold text-muted">
        {label}
      </label>
      <select
        id={id}
        className={`select select-sm w-full ${describedBy ? 'select-error' : ''}`}
        value={value}
        disabled={disabled}
        aria-invalid={describedBy ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
    </div>
  );
}

/** A price in whole dollars, applied when the field is left or Enter is pressed. */
function PriceInput({
  label,
  cents,
  onCommit,
  describedBy,
}: {
  label: string;
  cents: string | null;
  onCommit: (cents: string | null) => void;
  /** The id of a message about this field: it is then marked invalid. */
  describedBy?: string | undefined;
}) {
  const id = useId();
  const [text, setText] = useState(cents ? String(Number(cents) / 100) : '');
  useEffect(() => setText(cents ? String(Number(cents) / 100) : ''), [cents]);
  const commit = () => {
    const dollars = Number(text.replace(/[^0-9.]/g, ''));
    onCommit(text.trim() && Number.isFinite(dollars) ? String(Math.round(dollars * 100)) : null);
  };
  return (
    <div className="min-w-0 flex-1">
      <label htmlFor={id} className="mb-1 block text-xs font-semibold text-muted">
        {label}
      </label>
      <div className="relative">
        <span className="pointer-events-none absolute top-1/2 left-3 z-10 -translate-y-1/2 text-sm text-muted">
          $
        </span>
        <input
          id={id}
          inputMode="numeric"
          className={`input input-sm w-full pl-6 ${describedBy ? 'input-error' : ''}`}
          aria-invalid={describedBy ? true : undefined}
          aria-describedby={describedBy}
          value={text}
          placeholder="Any"
          onChange={(event) => setText(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
          }}
        />
      </div>
    </div>
  );
}

/** Ends of a range typed but not sent, because the range would be inverted. */
export type Drafts = Partial<Record<RangeFilter, string | null>>;

const RANGE_ENDS = {
  price: { part: 'price', min: 'priceMin', max: 'priceMax' },
  year: { part: 'year', min: 'yearMin', max: 'yearMax' },
} as const;

/** The drafts whose range is still inverted against the address `params`. */
export function withoutSettled(drafts: Drafts, params: URLSearchParams): Drafts {
  const inverted = invertedRanges((k) => (k in drafts ? (drafts[k] ?? null) : params.get(k)));
  const kept: Drafts = {};
  for (const { part, min, max } of Object.values(RANGE_ENDS)) {
    if (!inverted[part]) continue;
    if (min in drafts) kept[min] = drafts[min];
    if (max in drafts) kept[max] = drafts[max];
  }
  return Object.keys(kept).length === Object.keys(drafts).length ? drafts : kept;
}

/** Every filter of a search, with facet counts; each change is one new address. */
export function FilterPanel({
  params,
  facets,
  onChange,
  errors = {},
  counting = true,
  drafts: heldDrafts,
  onDrafts,
}: {
  params: URLSearchParams;
  facets: Facets | undefined;
  onChange: Change;
  /** What is wrong with the search in the address (or the server said), by part of the form. */
  errors?: FilterErrors;
  /** False when no counts are coming (the search cannot run as it is). */
  counting?: boolean;
  /**
   * The unsent ends, when the page keeps them (the phone's Filters dialog: they outlive its
   * closing, and its button waits for them); the panel keeps its own otherwise.
   */
  drafts?: Drafts;
  onDrafts?: Dispatch<SetStateAction<Drafts>>;
}) {
  const [placeText, setPlaceText] = useState(params.get('placeName') ?? '');
  useEffect(() => setPlaceText(params.get('placeName') ?? ''), [params]);
  // An end of a range chosen but not sent, because the range would be inverted: it stays in its
  // field, with a message, until the range is put right; then both ends are sent at once. A
  // change of the address from elsewhere (Clear all) drops the drafts it leaves in the right order.
  const [ownDrafts, setOwnDrafts] = useState<Drafts>({});
  const drafts = heldDrafts ?? ownDrafts;
  const setDrafts = onDrafts ?? setOwnDrafts;
  useEffect(() => {
    if (!onDrafts) setOwnDrafts((now) => withoutSettled(now, params));
  }, [params, onDrafts]);
  const rangeValue = (key: RangeFilter, from = drafts) =>
    key in from ? (from[key] ?? null) : params.get(key);
  const setRange = (key: RangeFilter) => (value: string | null) => {
    const next = { ...drafts, [key]: value || null };
    const { part, min, max } = RANGE_ENDS[key.startsWith('price') ? 'price' : 'year'];
    // Checked against the address as it is now: the one last drawn may be older.
    const now = new URLSearchParams(window.location.search);
    const valueOf = (k: RangeFilter, at: URLSearchParams) =>
      k in next ? (next[k] ?? null) : at.get(k);
    if (invertedRanges((k) => valueOf(k, now))[part]) {
      setDrafts(next);
      return;
    }
    const rest = { ...next };
    delete rest[min];
    delete rest[max];
    setDrafts(rest);
    onChange((current) =>
      setValue(setValue(current, min, valueOf(min, current)), max, valueOf(max, current)),
    );
  };
  const shownErrors: FilterErrors = { ...errors, ...invertedRanges((k) => rangeValue(k)) };
  const id = useId();
  const errorId = (part: FilterPart) => (shownErrors[part] ? `${id}-${part}-error` : undefined);
  const message = (part: FilterPart) =>
    shownErrors[part] && (
      <p id={errorId(part)} role="alert" className="field-error mt-1">
        {shownErrors[part]}
      </p>
    );
  const waiting = counting ? 'Counting…' : 'Counted once the filters are put right.';
  const set = (key: string) => (value: string) =>
    onChange((current) => setValue(current, key, value || null));
  const years = modelYears();
  /** One facet's group of checkboxes. */
  const checklist = (title: string, name: ListFilter) => (
    <Section key={name} title={title}>
      <Checklist
        name={name}
        params={params}
        values={facets?.[name]}
        onChange={onChange}
        waiting={waiting}
      />
    </Section>
  );

  return (
    <div aria-busy={!facets || undefined}>
      {checklist('Make', 'make')}
      {params.getAll('make').length > 0 && checklist('Model', 'model')}
      <Section title="Price">
        <div className="flex gap-2">
          <PriceInput
            label="From"
            cents={rangeValue('priceMin')}
            onCommit={setRange('priceMin')}
            describedBy={errorId('price')}
          />
          <PriceInput
            label="To"
            cents={rangeValue('priceMax')}
            onCommit={setRange('priceMax')}
            describedBy={errorId('price')}
          />
        </div>
        {message('price')}
        {facets && facets.price.length > 0 && (
          <ul className="mt-2 flex flex-wrap gap-1" aria-label="Price ranges">
            {facets.price.map((range) => (
              <li key={range.min}>
                <button
                  type="button"
                  className="rounded-full border border-base-300 px-2 py-0.5 text-xs hover:bg-base-200"
                  onClick={() =>
                    onChange((current) =>
                      setValue(
                        setValue(current, 'priceMin', range.min ? String(range.min) : null),
                        'priceMax',
                        range.max === null ? null : String(range.max),
                      ),
                    )
                  }
                >
                  {range.max === null
                    ? `${money(String(range.min))}+`
                    : `${money(String(range.min))}–${money(String(range.max))}`}{' '}
                  <span className="text-muted">({count.format(range.count)})</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </Section>
      {/* No group until some car has a price guide (a new site, a market of few cars). */}
      {(facets?.deal.length !== 0 || params.getAll('deal').length > 0) && checklist('Deal', 'deal')}
      <Section title="Year">
        <div className="flex gap-2">
          <Select
            label="From"
            value={rangeValue('yearMin') ?? ''}
            onChange={setRange('yearMin')}
            describedBy={errorId('year')}
          >
            <option value="">Any</option>
            {years.map((year) => (
              <option key={year}>{year}</option>
            ))}
          </Select>
          <Select
            label="To"
            value={rangeValue('yearMax') ?? ''}
            onChange={setRange('yearMax')}
            describedBy={errorId('year')}
          >
            <option value="">Any</option>
            {years.map((year) => (
              <option key={year}>{year}</option>
            ))}
          </Select>
        </div>
        {message('year')}
      </Section>
      <Section title="Mileage">
        <Select
          label="Up to"
          value={params.get('mileageMax') ?? ''}
          onChange={set('mileageMax')}
          describedBy={errorId('mileage')}
        >
          <option value="">Any mileage</option>
          {MILEAGES.map((mileage) => (
            <option key={mileage} value={toKm(mileage, lengthUnit)}>
              {count.format(mileage)} {lengthUnit}
            </option>
          ))}
        </Select>
        {message('mileage')}
      </Section>
      <Section title="Location">
        <PlacePicker
          label="Near"
          invalid={Boolean(shownErrors.place)}
          describedBy={errorId('place')}
          text={placeText}
          onText={(text) => {
            setPlaceText(text);
            if (!text && params.get('near')) onChange((current) => setValue(current, 'near', null));
          }}
          onPick={(place) =>
            onChange((current) => {
              const next = setValue(
                setValue(current, 'near', String(place.id)),
                'placeName',
                place.label,
              );
              if (!next.get('radiusKm')) next.set('radiusKm', PICKED_RADIUS_KM);
              return next;
            })
          }
        />
        <div className="mt-2">
          <Select
            label={params.get('near') ? 'Within' : 'Within (pick a place first)'}
            value={params.get('radiusKm') ?? PICKED_RADIUS_KM}
            disabled={!params.get('near')}
            onChange={(value) => onChange((current) => setValue(current, 'radiusKm', value))}
          >
            {RADII.map((radius) => (
              <option key={radius} value={toKm(radius, lengthUnit)}>
                {radius} {lengthUnit}
              </option>
            ))}
          </Select>
        </div>
        {message('place')}
      </Section>
      {LATER_CHECKLISTS.map(([title, name]) => checklist(title, name))}
    </div>
  );
}

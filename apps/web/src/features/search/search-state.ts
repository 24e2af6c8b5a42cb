import {
  DEAL_RATING_LABELS,
  DEAL_RATINGS,
  formatMoney,
  INVERTED_RANGE_MESSAGES,
  isInvertedRange,
  type SearchSort,
} from '@carmarket/shared';

import { siteCurrency } from '../../config/site';
import { formatLength, lengthUnitOf, toKm } from '../../lib/units';
import { fuelLabel, transmissionLabel } from '../listings';

/*
 * Written out rather than imported: SEARCH_SORTS lives in a file of @carmarket/shared that
 * imports zod, which would come into the page (money.ts, enums.ts and search-ranges.ts, used
 * below, import nothing).
 * The type keeps the two lists the same.
 */
export const SORTS: Record<SearchSort, string> = {
  relevance: 'Best match',
  newest: 'Newest listed',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  mileage_asc: 'Mileage: lowest first',
  year_desc: 'Year: newest first',
  distance: 'Distance: nearest first',
  deal: 'Best deals first',
};

/**
 * A search lives in the address: the page's query parameters are the API's (`GET /api/listings`),
 * so a search can be shared, bookmarked and reloaded, and Back restores it. `placeName` is the
 * only extra: the label of `near`, for people.
 */
export const LIST_FILTERS = [
  'make',
  'model',
  'bodyType',
  'fuel',
  'transmission',
  'condition',
  'deal',
] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

export const RANGE_FILTERS = ['yearMin', 'yearMax', 'priceMin', 'priceMax', 'mileageMax'] as const;
export type RangeFilter = (typeof RANGE_FILTERS)[number];

/** The parts of the filters a message can be about, each shown beside its inputs. */
export type FilterPart = 'price' | 'year' | 'mileage' | 'place';
export type FilterErrors = Partial<Record<FilterPart, string>>;

/** Ranges whose two ends go together. */
const RANGES = [
  ['price', 'priceMin', 'priceMax'],
  ['year', 'yearMin', 'yearMax'],
] as const;

/**
 * Ranges whose lower end is above the upper, with what to say: such a search is never sent (the
 * server would refuse it, as SearchQuerySchema does with the same check and words).
 */
export function invertedRanges(valueOf: (key: RangeFilter) => string | null): FilterErrors {
  const errors: FilterErrors = {};
  for (const [part, min, max] of RANGES) {
    const end = (key: RangeFilter) => {
      const value = valueOf(key);
      return value ? Number(value) : undefined;
    };
    if (isInvertedRange(end(min), end(max))) errors[part] = INVERTED_RANGE_MESSAGES[part];
  }
  return errors;
}

/** Which part of the filters a parameter the server refused belongs to. */
export const partOfField: Record<string, FilterPart> = {
  priceMin: 'price',
  priceMax: 'price',
  yearMin: 'year',
  yearMax: 'year',
  mileageMax: 'mileage',
  near: 'place',
  radiusKm: 'place',
};

const API_KEYS = [
  'q',
  'category',
  ...LIST_FILTERS,
  ...RANGE_FILTERS,
  'near',
  'radiusKm',
  'sort',
  // Cars per page (1-48); the API's default of 24 when absent.
  'limit',
] as const;

/** The API query of the page's address, in a fixed order (one cache entry per search). */
export function apiQueryOf(params: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const key of API_KEYS) {
    for (const value of params.getAll(key).sort()) if (value.trim()) query.append(key, value);
  }
  return query.toString();
}

export function sortOf(params: URLSearchParams): SearchSort {
  const sort = params.get('sort');
  if (sort && Object.hasOwn(SORTS, sort)) return sort as SearchSort;
  return params.get('q') ? 'relevance' : 'newest';
}

/** Adds or removes one value of a repeatable filter; every change starts from the first page. */
export function toggleValue(params: URLSearchParams, key: ListFilter, value: string) {
  const next = new URLSearchParams(params);
  const values = next.getAll(key);
  next.delete(key);
  const kept = values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
  for (const v of kept) next.append(key, v);
  // Models belong to makes: dropping the last make drops the models too.
  if (key === 'make' && kept.length === 0) next.delete('model');
  return next;
}

export function setValue(params: URLSearchParams, key: string, value: string | null) {
  const next = new URLSearchParams(params);
  if (value === null || value === '') next.delete(key);
  else next.set(key, value);
  if (key === 'near' && !value) {
    next.delete('radiusKm');
    next.delete('placeName');
    if (next.get('sort') === 'distance') next.delete('sort');
  }
  return next;
}

/** Every filter set, as removable chips: key, value and what to call it. */
export interface Chip {
  key: string;
  value: string;
  label: string;
}

/** "$15,000", for a price in cents as the address holds it. */
export const money = (cents: string) =>
  formatMoney(Number(cents), siteCurrency, { precision: 'whole' });

/** The unit the filters show lengths in; the address holds kilometres, as the API takes them. */
export const lengthUnit = lengthUnitOf(siteCurrency);
/** "31,069 mi", for kilometres as the address holds them. */
export const length = (km: string) => formatLength(Number(km), lengthUnit);
/** The radius a place picked is searched within until another is chosen: 100 of the unit shown. */
export const PICKED_RADIUS_KM = String(toKm(100, lengthUnit));
/** The API's radius when the address has none (DEFAULT_RADIUS_KM in @carmarket/shared). */
export const API_RADIUS_KM = '100';

/** Deal ratings best first (DEAL_RATINGS' order), whatever order they were ticked in. */
function bestFirst(ratings: string[]): string[] {
  const rank = (rating: string) => {
    const index = (DEAL_RATINGS as readonly string[]).indexOf(rating.split(',')[0]!);
    return index === -1 ? DEAL_RATINGS.length : index;
  };
  return [...ratings].sort((a, b) => rank(a) - rank(b));
}

/** A list filter's values from the address, deal ratings best first, for chips and names. */
export function valuesOf(params: URLSearchParams, key: string): string[] {
  const values = params.getAll(key);
  return key === 'deal' ? bestFirst(values) : values;
}

export function chipsOf(params: URLSearchParams, categoryName?: string): Chip[] {
  const chips: Chip[] = [];
  const q = params.get('q');
  if (q) chips.push({ key: 'q', value: q, label: `“${q}”` });
  const category = params.get('category');
  if (category) chips.push({ key: 'category', value: category, label: categoryName ?? 'Category' });
  for (const key of LIST_FILTERS) {
    for (const value of valuesOf(params, key))
      chips.push({ key, value, label: labelOf(key, value) });
  }
  const labels: Record<RangeFilter, (v: string) => string> = {
    yearMin: (v) => `From ${v}`,
    yearMax: (v) => `Up to ${v}`,
    priceMin: (v) => `From ${money(v)}`,
    priceMax: (v) => `Up to ${money(v)}`,
    mileageMax: (v) => `Up to ${length(v)}`,
  };
  for (const key of RANGE_FILTERS) {
    const value = params.get(key);
    if (value) chips.push({ key, value, label: labels[key](value) });
  }
  const near = params.get('near');
  if (near) {
    const radius = params.get('radiusKm') ?? API_RADIUS_KM;
    chips.push({
      key: 'near',
      value: near,
      label: `Within ${length(radius)} of ${params.get('placeName') ?? 'the place chosen'}`,
    });
  }
  return chips;
}

export function labelOf(key: string, value: string): string {
  if (key === 'fuel') return fuelLabel(value);
  if (key === 'transmission') return transmissionLabel(value);
  // The API also takes ratings comma-separated (`deal=great,good`), as a link may give them.
  if (key === 'deal') {
    return bestFirst(value.split(','))
      .map((rating) =>
        Object.hasOwn(DEAL_RATING_LABELS, rating)
          ? DEAL_RATING_LABELS[rating as keyof typeof DEAL_RATING_LABELS]
          : rating,
      )
      .join(' or ');
  }
  return value;
}

export function removeChip(params: URLSearchParams, chip: Chip): URLSearchParams {
  if ((LIST_FILTERS as readonly string[]).includes(chip.key)) {
    return toggleValue(params, chip.key as ListFilter, chip.value);
  }
  return setValue(params, chip.key, null);
}

/** Keeps only what is not a filter (the sort order); "Clear all". */
export function clearFilters(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams();
  const sort = params.get('sort');
  if (sort && sort !== 'distance' && sort !== 'relevance') next.set('sort', sort);
  return next;
}

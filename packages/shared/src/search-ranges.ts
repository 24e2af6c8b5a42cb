/**
 * The search's ranges whose two ends go together, and what to say when the lower end is above
 * the upper: the server refuses such a search (SearchQuerySchema) and the web never sends one,
 * in the same words. No imports, so the web's /cars takes this without zod.
 */
export const INVERTED_RANGE_MESSAGES = {
  price: 'The lowest price must not be above the highest',
  year: 'The earliest year must not be after the latest',
} as const;

/** Whether a range's lower end is above its upper; an end not given bounds nothing. */
export function isInvertedRange(low: number | undefined, high: number | undefined): boolean {
  return low !== undefined && high !== undefined && low > high;
}

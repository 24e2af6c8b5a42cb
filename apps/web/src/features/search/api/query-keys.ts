/**
 * Query keys of this feature. Results start with the listings' word ('listing'), so what
 * refreshes cars after a sale or an edit (listingKeys.cars) refreshes searches too.
 */
export const searchKeys = {
  results: (query: string) => ['listing', 'search', query] as const,
  totals: (queries: string[]) => ['listing', 'search-totals', ...queries] as const,
  places: (q: string) => ['places', q] as const,
};

/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const searchKeys = {
  all: ['search'] as const,
  results: (query: string) => ['search', query] as const,
  places: (q: string) => ['places', q] as const,
};

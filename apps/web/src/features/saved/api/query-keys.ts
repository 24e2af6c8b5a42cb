/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const savedKeys = {
  all: ['saved'] as const,
  cars: ['saved', 'cars'] as const,
  searches: ['saved', 'searches'] as const,
};

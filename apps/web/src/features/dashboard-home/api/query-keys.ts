/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const statsKeys = {
  all: ['stats'] as const,
};

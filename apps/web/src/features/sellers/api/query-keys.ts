/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const sellerKeys = {
  profile: (id: string) => ['seller', id] as const,
  cars: (id: string) => ['seller', id, 'cars'] as const,
};

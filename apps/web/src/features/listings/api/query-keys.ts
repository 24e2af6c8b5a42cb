/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const listingKeys = {
  categoryPages: ['category'] as const,
  categoryPage: (id: string) => ['category', id] as const,
  cars: ['listing'] as const,
  car: (id: string) => ['listing', id] as const,
  similar: (id: string) => ['listing', id, 'similar'] as const,
};

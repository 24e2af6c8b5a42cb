/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const sellerKeys = {
  listings: ['seller', 'listings'] as const,
  bookedItems: ['seller', 'booked-items'] as const,
};

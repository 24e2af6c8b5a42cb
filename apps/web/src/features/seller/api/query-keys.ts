/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const sellerKeys = {
  /** Every list of the seller's cars, and the tabs' counts: a change to a car reloads them all. */
  listings: ['seller', 'listings'] as const,
  listingsIn: (view: { status: string | null; q: string; sort: string }) =>
    ['seller', 'listings', 'list', view] as const,
  counts: (q: string) => ['seller', 'listings', 'counts', q] as const,
  bookedItems: ['seller', 'booked-items'] as const,
};

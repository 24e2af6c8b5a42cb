/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const paymentKeys = {
  config: ['payments', 'config'] as const,
  intent: (bookingId: string) => ['payments', 'intent', bookingId] as const,
};

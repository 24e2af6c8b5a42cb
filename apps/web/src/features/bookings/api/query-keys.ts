/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const bookingKeys = {
  all: ['bookings'] as const,
  ofEmail: (email: string) => ['bookings', 'of', email] as const,
  one: (id: string) => ['bookings', 'one', id] as const,
  receipt: (id: string) => ['bookings', 'receipt', id] as const,
};

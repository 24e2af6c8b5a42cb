/** Every bookings query starts with `bookings`, so one invalidation refreshes them all. */
export const bookingKeys = {
  all: ['bookings'] as const,
  ofEmail: (email: string) => ['bookings', 'of', email] as const,
  one: (id: string) => ['bookings', 'one', id] as const,
};

/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const adminKeys = {
  users: ['admin', 'users'] as const,
  usersPage: <Q extends object>(query: Q) => ['admin', 'users', query] as const,
  audit: ['admin', 'audit'] as const,
  userCars: ['admin', 'user-cars'] as const,
  carsOfUser: (id: string) => ['admin', 'user-cars', id] as const,
  categories: ['admin', 'categories'] as const,
  categoryIcons: ['admin', 'category-icons'] as const,
};

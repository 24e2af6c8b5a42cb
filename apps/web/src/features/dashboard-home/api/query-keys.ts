/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const statsKeys = {
  all: ['stats'] as const,
  /** One person's figures: their roles are in the key (see useStats). */
  forRoles: (roles: readonly string[]) => [...statsKeys.all, [...roles].sort().join(',')] as const,
  /** The admins' money figures (see useMoneySummary). */
  money: ['stats', 'money'] as const,
};

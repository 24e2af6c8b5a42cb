/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const payoutKeys = {
  all: ['payouts'] as const,
  balance: ['payouts', 'balance'] as const,
  list: ['payouts', 'list'] as const,
  account: ['payouts', 'account'] as const,
  disputes: ['payouts', 'disputes'] as const,
  disputesOf: (status: string) => ['payouts', 'disputes', status] as const,
};

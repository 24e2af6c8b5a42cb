/** Query keys of this feature; each starts with the same word, so one invalidation refreshes all. */
export const messageKeys = {
  all: ['messages'] as const,
  unread: ['messages', 'unread'] as const,
  conversations: ['messages', 'conversations'] as const,
  forCar: (listingId: string) => ['messages', 'conversations', 'car', listingId] as const,
  conversation: (id: string) => ['messages', 'conversation', id] as const,
  thread: (id: string) => ['messages', 'thread', id] as const,
  reports: ['messages', 'reports'] as const,
};

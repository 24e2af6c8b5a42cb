/** "1 view", "3 views": the count and its word, with an s unless the count is one. */
export const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

import { ApiError } from './api-client';
import { shouldRetry } from './should-retry';

/** Tries of a search the server keeps refusing for going too fast, before the page says so. */
const BUSY_RETRIES = 10;

/**
 * A search refused because this person is searching faster than the search budget allows
 * (several at once, or many in a minute): it will run once the wait it names is over. The
 * search and a category's page (a search of one category) share the budget.
 */
export function isBusyRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 429;
}

/** A refused search is tried again, quietly and for a while; other failures as any query's. */
export function retrySearch(failureCount: number, error: unknown): boolean {
  if (isBusyRefusal(error)) return failureCount < BUSY_RETRIES;
  return shouldRetry(failureCount, error);
}

/** After a refusal, the wait the server named (Retry-After); else 1 s, 2 s, 4 s … up to 30 s. */
export function searchRetryDelay(failureCount: number, error: unknown): number {
  if (isBusyRefusal(error)) return Math.max(1, error.retryAfterSeconds ?? 1) * 1000;
  return Math.min(1000 * 2 ** failureCount, 30_000);
}

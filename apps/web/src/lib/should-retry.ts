import { ApiError } from './api-client';

const MAX_RETRIES = 3;

/**
 * Retries failed fetches, except answers that another try cannot change (4xx). Apart from
 * query-client.ts so that a page's chunk can use it without importing the QueryClient (which
 * makes the bundler move React Query's hooks out of the entry: ~0.9 KB more on the home page).
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

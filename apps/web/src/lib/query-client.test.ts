import { describe, expect, it } from 'vitest';

import { ApiError } from './api-client';
import { createQueryClient, retryDelay, shouldRetry } from './query-client';

describe('query client', () => {
  it('keeps unused data for 5 minutes', () => {
    expect(createQueryClient().getDefaultOptions().queries?.gcTime).toBe(5 * 60_000);
  });

  it('retries a failed fetch 3 times', () => {
    const serverError = new ApiError('internal', 'Boom', 500);
    expect([0, 1, 2, 3].map((failures) => shouldRetry(failures, serverError))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(shouldRetry(0, new ApiError('network-request-failed', 'Offline', 0))).toBe(true);
  });

  it('does not retry answers that another try cannot change (4xx)', () => {
    expect(shouldRetry(0, new ApiError('not-found', 'Missing', 404))).toBe(false);
    expect(shouldRetry(0, new ApiError('unauthenticated', 'Sign in', 401))).toBe(false);
  });

  it('waits twice as long before each retry, never more than 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });
});

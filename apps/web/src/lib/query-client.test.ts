import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from './api-client';
import { createQueryClient } from './query-client';
import { shouldRetry } from './should-retry';

describe('query client', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

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

  it('waits 1 s, 2 s, then 4 s before its retries', async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const queryFn = vi.fn(() => Promise.reject(new ApiError('internal', 'Boom', 500)));
    void client.fetchQuery({ queryKey: ['failing'], queryFn }).catch(() => {});
    const callsAfter = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      return queryFn.mock.calls.length;
    };
    expect(await callsAfter(0)).toBe(1);
    expect(await callsAfter(999)).toBe(1);
    expect(await callsAfter(1)).toBe(2);
    expect(await callsAfter(1999)).toBe(2);
    expect(await callsAfter(1)).toBe(3);
    expect(await callsAfter(3999)).toBe(3);
    expect(await callsAfter(1)).toBe(4);
    expect(await callsAfter(60_000)).toBe(4);
  });
});

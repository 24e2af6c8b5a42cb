import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { createQueryClient } from '../../../lib/query-client';
import { categoryQueryOptions } from './get-category';

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a category's page refused by the search budget (429)", () => {
  it('waits what the server said and asks again, without an error', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(() =>
      Promise.resolve(
        answer(429, {
          error: {
            code: 'too-many-requests',
            message:
              'You have 4 searches running already. Wait for one to finish, then search again.',
            retryAfterSeconds: 3,
          },
        }),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    const client = createQueryClient();
    const observer = new QueryObserver(client, categoryQueryOptions('suv'));
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(observer.getCurrentResult().isError).toBe(false);

    fetch.mockImplementation(() =>
      Promise.resolve(answer(200, { _id: 'suv', name: 'SUV', total: 12, items: [] })),
    );
    await vi.advanceTimersByTimeAsync(2999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(observer.getCurrentResult().data?.name).toBe('SUV');
    unsubscribe();
  });
});

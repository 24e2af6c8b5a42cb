import { InfiniteQueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '../../../lib/api-client';
import { createQueryClient } from '../../../lib/query-client';
import { isLongWait, searchCarsOptions, searchWaitNote } from './search-cars';

const page = (name: string) => ({
  items: [{ _id: name, name }],
  total: 1,
  totalIsEstimate: false,
  nextCursor: null,
});

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** The server's 429 of the search budget, as it words it. */
const refused = (retryAfterSeconds: number) =>
  answer(429, {
    error: {
      code: 'too-many-requests',
      message: 'You have 4 searches running already. Wait for one to finish, then search again.',
      retryAfterSeconds,
    },
  });

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a search refused for going too fast (429)', () => {
  it('keeps the last results on screen, waits what the server said, and tries again quietly', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn((url: string) =>
      Promise.resolve(url.includes('make=Volvo') ? refused(2) : answer(200, page('first'))),
    );
    vi.stubGlobal('fetch', fetch);
    const client = createQueryClient();
    const observer = new InfiniteQueryObserver(client, searchCarsOptions('make=Toyota'));
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(observer.getCurrentResult().data?.pages[0]?.items[0]?._id).toBe('first');

    // The person picks another make: the server refuses that search for 2 seconds.
    observer.setOptions(searchCarsOptions('make=Volvo'));
    await vi.advanceTimersByTimeAsync(0);
    const waiting = observer.getCurrentResult();
    expect(waiting.isError).toBe(false);
    expect(waiting.isPlaceholderData).toBe(true);
    expect(waiting.data?.pages[0]?.items[0]?._id).toBe('first');
    expect(waiting.failureReason).toBeInstanceOf(ApiError);
    expect((waiting.failureReason as ApiError).retryAfterSeconds).toBe(2);
    // Two seconds are short: no note.
    expect(isLongWait(waiting.failureCount, waiting.failureReason)).toBe(false);

    const volvoCalls = () => fetch.mock.calls.filter(([url]) => url.includes('Volvo')).length;
    expect(volvoCalls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1999);
    expect(volvoCalls()).toBe(1);
    fetch.mockImplementation(() => Promise.resolve(answer(200, page('volvo'))));
    await vi.advanceTimersByTimeAsync(1);
    expect(volvoCalls()).toBe(2);
    const found = observer.getCurrentResult();
    expect(found.isSuccess).toBe(true);
    expect(found.data?.pages[0]?.items[0]?._id).toBe('volvo');
    expect(found.failureReason).toBeNull();
    unsubscribe();
  });

  it('says so when the wait is long or the refusals keep coming', () => {
    const minuteSpent = new ApiError('too-many-requests', 'Try again in 40 seconds.', 429);
    const withWait = (seconds: number) =>
      new ApiError('too-many-requests', 'Wait', 429, undefined, undefined, undefined, seconds);
    expect(isLongWait(1, withWait(40))).toBe(true);
    expect(isLongWait(1, withWait(1))).toBe(false);
    expect(isLongWait(3, withWait(1))).toBe(true);
    expect(isLongWait(1, minuteSpent)).toBe(false);
    expect(isLongWait(5, new ApiError('internal', 'Boom', 500))).toBe(false);
  });

  it('says how long, and why, in words that fit the refusal', () => {
    const withWait = (seconds: number) =>
      new ApiError('too-many-requests', 'Wait', 429, undefined, undefined, undefined, seconds);
    expect(searchWaitNote(1, withWait(1))).toBeNull();
    expect(searchWaitNote(1, withWait(40))).toBe(
      'You have searched more in the last minute than we allow. New results follow within a minute, by themselves.',
    );
    expect(searchWaitNote(3, withWait(1))).toBe(
      'You have several searches running at once. New results follow in a moment, by themselves.',
    );
  });

  it('still shows other refusals at once, untried (a 400 another try cannot change)', async () => {
    const fetch = vi.fn(() =>
      Promise.resolve(
        answer(400, { error: { code: 'validation-failed', message: 'Bad', field: 'near' } }),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    const client = createQueryClient();
    await expect(client.fetchInfiniteQuery(searchCarsOptions('sort=distance'))).rejects.toThrow(
      'Bad',
    );
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { api, ApiError, apiHooks } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { keepSession, refreshDelay, retryDelay, stopKeepingSession } from './session-keeper';
import { sessionQueryKey } from './use-session';

vi.mock('../../lib/toast', () => ({
  toast: { error: vi.fn(), success: vi.fn(), info: vi.fn(), warning: vi.fn(), show: vi.fn() },
}));

const MINUTE = 60_000;

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function tokenAnswer(token: string, lifetimeMs = 60 * MINUTE) {
  return answer(200, {
    accessToken: token,
    expiresAt: new Date(Date.now() + lifetimeMs).toISOString(),
  });
}

/** The Authorization header of the fetch call `index`. */
function authorizationOf(fetch: ReturnType<typeof vi.fn>, index: number) {
  const [, init] = fetch.mock.calls[index] as [string, RequestInit];
  return (init.headers as Record<string, string>).authorization;
}

describe('session keeper timing', () => {
  it('refreshes 5 minutes before the token expires', () => {
    expect(refreshDelay(60 * MINUTE, 0)).toBe(55 * MINUTE);
  });

  it('refreshes short-lived tokens halfway through', () => {
    expect(refreshDelay(4 * MINUTE, 0)).toBe(2 * MINUTE);
    expect(refreshDelay(-1000, 0)).toBe(0);
  });

  it('backs off from 30 s, doubling up to 16 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 12].map(retryDelay)).toEqual([
      30_000,
      MINUTE,
      2 * MINUTE,
      4 * MINUTE,
      8 * MINUTE,
      16 * MINUTE,
      16 * MINUTE,
      16 * MINUTE,
    ]);
  });
});

describe('keepSession', () => {
  let fetch: ReturnType<typeof vi.fn>;
  let queryClient: QueryClient;
  let goTo: ReturnType<typeof vi.fn<(path: string) => void>>;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('window', { location: { pathname: '/dashboard/orders', search: '' } });
    fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    queryClient = new QueryClient();
    goTo = vi.fn<(path: string) => void>();
  });

  afterEach(() => {
    stopKeepingSession();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.mocked(toast.error).mockClear();
  });

  it('asks for a token by email and sends it with every request until it is about to expire', async () => {
    fetch.mockResolvedValueOnce(tokenAnswer('first'));
    keepSession('pat@example.com', queryClient, goTo);
    await vi.waitFor(() => expect(apiHooks.headers?.()).toEqual({ authorization: 'Bearer first' }));
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/jwt?email=pat%40example.com');

    fetch.mockResolvedValue(answer(200, []));
    await api.get('/category');
    expect(authorizationOf(fetch, 1)).toBe('Bearer first');

    // 30 s before expiry it is no longer sent, even if the refresh has not happened yet.
    fetch.mockRejectedValue(new TypeError('offline'));
    vi.setSystemTime(Date.now() + 59.6 * MINUTE);
    expect(apiHooks.headers?.()).toEqual({});
  });

  it('refreshes the token 5 minutes before it expires', async () => {
    fetch.mockResolvedValueOnce(tokenAnswer('first')).mockResolvedValueOnce(tokenAnswer('second'));
    keepSession('pat@example.com', queryClient, goTo);
    await vi.waitFor(() => expect(apiHooks.headers?.()).toEqual({ authorization: 'Bearer first' }));

    await vi.advanceTimersByTimeAsync(55 * MINUTE - 1000);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() =>
      expect(apiHooks.headers?.()).toEqual({ authorization: 'Bearer second' }),
    );
  });

  it('retries a failed refresh after 30 s, then 1 min, then 2 min', async () => {
    fetch.mockRejectedValue(new TypeError('offline'));
    keepSession('pat@example.com', queryClient, goTo);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(MINUTE - 1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it.each([['user-disabled'], ['user-token-expired']])(
    'signs out, says why and goes to sign in when a call answers 401 %s',
    async (code) => {
      fetch.mockResolvedValueOnce(tokenAnswer('first'));
      queryClient.setQueryData(sessionQueryKey, { user: { email: 'pat@example.com' } });
      queryClient.setQueryData(['booked'], ['a booking']);
      keepSession('pat@example.com', queryClient, goTo);
      await vi.waitFor(() => expect(apiHooks.headers).toBeDefined());

      fetch.mockResolvedValueOnce(answer(401, { error: { code, message: `Because ${code}` } }));
      fetch.mockResolvedValue(answer(200, null));
      await expect(api.get('/booked?email=pat@example.com')).rejects.toBeInstanceOf(ApiError);

      expect(goTo).toHaveBeenCalledWith('/login?next=/dashboard/orders');
      expect(toast.error).toHaveBeenCalledWith(`Because ${code}`);
      expect(queryClient.getQueryData(sessionQueryKey)).toBeNull();
      expect(queryClient.getQueryData(['booked'])).toBeUndefined();
      expect(apiHooks.headers).toBeUndefined();
      // The cookie session is ended too.
      expect(fetch.mock.calls.at(-1)?.[0]).toBe('/api/auth/sign-out');
    },
  );

  it('leaves other refusals to the page', async () => {
    fetch.mockResolvedValueOnce(tokenAnswer('first'));
    keepSession('pat@example.com', queryClient, goTo);
    await vi.waitFor(() => expect(apiHooks.headers).toBeDefined());

    fetch.mockResolvedValueOnce(answer(403, { error: { code: 'forbidden', message: 'No' } }));
    await expect(api.get('/all/user')).rejects.toBeInstanceOf(ApiError);
    fetch.mockResolvedValueOnce(answer(401, { error: { code: 'unauthenticated', message: 'No' } }));
    await expect(api.get('/all/user')).rejects.toBeInstanceOf(ApiError);
    expect(goTo).not.toHaveBeenCalled();
    expect(apiHooks.headers).toBeDefined();
  });

  it('stops sending the token once stopped', async () => {
    fetch.mockResolvedValueOnce(tokenAnswer('first'));
    const stop = keepSession('pat@example.com', queryClient, goTo);
    await vi.waitFor(() => expect(apiHooks.headers).toBeDefined());
    stop();
    expect(apiHooks.headers).toBeUndefined();
    expect(apiHooks.onError).toBeUndefined();
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

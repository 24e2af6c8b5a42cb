import { ERROR_MESSAGES } from '@carmarket/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { api, ApiError, apiHooks } from './api-client';

function answer(status: number, body: unknown, type = 'application/json') {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Response(text, { status, headers: { 'content-type': type } });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

afterEach(() => {
  vi.unstubAllGlobals();
  apiHooks.headers = undefined;
  apiHooks.onError = undefined;
});

describe('api client', () => {
  it('sends JSON with the session cookie and reads the JSON answer', async () => {
    const fetch = vi.fn().mockResolvedValue(answer(200, { acknowledged: true }));
    vi.stubGlobal('fetch', fetch);

    await expect(api.post('/category', { phone: '555' })).resolves.toEqual({ acknowledged: true });
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/category');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe('{"phone":"555"}');
    expect(init.headers).toMatchObject({ 'content-type': 'application/json' });
  });

  it("hands the answer's headers to onHeaders, as paged lists need", async () => {
    const response = new Response('[]', { status: 200, headers: { 'x-total-count': '42' } });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(response));

    let total: string | null = null;
    await expect(
      api.get('/all/user', { onHeaders: (headers) => (total = headers.get('x-total-count')) }),
    ).resolves.toEqual([]);
    expect(total).toBe('42');
  });

  it("turns the server's error answer into an ApiError with its code, message and status", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        answer(409, {
          error: { code: 'conflict', message: 'Already booked', field: 'listingId' },
        }),
      ),
    );

    const error = await failure(api.get('/booked/1'));
    expect(error).toMatchObject({
      code: 'conflict',
      message: 'Already booked',
      status: 409,
      field: 'listingId',
    });
  });

  it('keeps when the hold that refused a request ends', async () => {
    const reservedUntil = '2026-11-23T16:05:00.000Z';
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        answer(409, {
          error: { code: 'conflict', message: 'Another buyer is paying', reservedUntil },
        }),
      ),
    );

    const error = await failure(api.post('/payments/hold', { bookingId: '1' }));
    expect(error).toMatchObject({ status: 409, reservedUntil });
  });

  it('names an error answer that is not JSON by its status', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer(503, '<h1>Busy</h1>', 'text/html')));

    const error = await failure(api.get('/category'));
    expect(error.code).toBe('unavailable');
    expect(error.status).toBe(503);
  });

  it('reports an unreachable server as network-request-failed, in the shared words', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    const error = await failure(api.get('/category'));
    expect(error.code).toBe('network-request-failed');
    expect(error.status).toBe(0);
    expect(error.message).toBe(ERROR_MESSAGES['network-request-failed']);
  });

  it('lets a cancelled request fail as the abort it is', async () => {
    const controller = new AbortController();
    controller.abort();
    vi.stubGlobal(
      'fetch',
      vi.fn().mockRejectedValue(new DOMException('The operation was aborted.', 'AbortError')),
    );

    await expect(api.get('/category', { signal: controller.signal })).rejects.toHaveProperty(
      'name',
      'AbortError',
    );
  });

  it('adds the headers the signed-in session provides (the bearer token) to every request', async () => {
    const fetch = vi.fn().mockResolvedValue(answer(200, []));
    vi.stubGlobal('fetch', fetch);
    apiHooks.headers = () => ({ authorization: 'Bearer abc' });

    await api.get('/booked?email=pat@example.com');
    const [, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(init.headers).toMatchObject({ authorization: 'Bearer abc' });
    expect(init.credentials).toBe('include');
  });

  it('shows every error answer to the signed-in session before the caller sees it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        answer(401, {
          error: { code: 'user-disabled', message: 'This account has been disabled.' },
        }),
      ),
    );
    const seen: ApiError[] = [];
    apiHooks.onError = (error) => seen.push(error);

    const error = await failure(api.get('/booked/1'));
    expect(seen).toEqual([error]);
    expect(error).toMatchObject({ code: 'user-disabled', status: 401 });
  });
});

import type { ErrorCode } from '@carmarket/shared';

/** Base path of the CarMarket API; the web app and the API share one origin. */
export const API_BASE = '/api';

/** An error the API answered with (`{ error: { code, message } }`), or a failed request. */
export class ApiError extends Error {
  constructor(
    /** One of the shared error codes, e.g. `not-found` or `network-request-failed`. */
    readonly code: string,
    message: string,
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    /** The input field the error is about, when the server named one. */
    readonly field?: string,
    /** The person's own booking that stopped the request, when the server named one. */
    readonly bookingId?: string,
    /** When a hold on the car that stops this request ends (ISO time), when the server said. */
    readonly reservedUntil?: string,
    /** Seconds to wait before asking again (a 429's Retry-After), when the server said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
  /** The answer's `X-Request-Id`: the code a person quotes so the server's log finds it. */
  requestId?: string | undefined;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Set by features/auth/session-keeper.ts while someone is signed in (spec section 9): headers for
 * every request (the bearer token, kept in memory only) and a look at every failed answer (a
 * disabled account or an ended session signs them out). The session cookie is sent either way.
 */
export const apiHooks: {
  headers?: (() => Record<string, string>) | undefined;
  onError?: ((error: ApiError) => void) | undefined;
} = {};

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Given the answer's headers, e.g. to read `X-Total-Count` on paged lists. */
  onHeaders?: (headers: Headers) => void;
}

/*
 * Words for the failures this client detects itself; the server words its own errors. They repeat
 * ERROR_MESSAGES from @carmarket/shared because importing anything at run time from that package
 * brings zod (~24 KB gzipped) into every page: its modules build zod schemas when loaded.
 */
const NETWORK_MESSAGE = 'We could not reach the server. Check your connection and try again.';
const FALLBACK_MESSAGE = 'Something went wrong. Please try again.';

/** The codes of error answers that did not say which (e.g. a proxy's HTML page), by status. */
const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not-found',
  429: 'too-many-requests',
  503: 'unavailable',
};

/**
 * The error for a failed answer: the server's own `{ error: { code, message, field? } }` when it
 * sent one, else one named by the status, in `fallback` words. Also read by callers that cannot
 * use `fetch` (the photo upload, which needs XMLHttpRequest's progress events). Checked by hand
 * rather than with ApiErrorSchema: zod would add ~24 KB to every page.
 */
export function apiErrorOf(status: number, body: unknown, fallback = FALLBACK_MESSAGE): ApiError {
  const { code, message, field, bookingId, reservedUntil, retryAfterSeconds } = ((
    body as { error?: unknown } | null
  )?.error ?? {}) as Record<string, unknown>;
  const named = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return typeof code === 'string' && typeof message === 'string'
    ? new ApiError(
        code,
        message,
        status,
        named(field),
        named(bookingId),
        named(reservedUntil),
        // As the server sent it (a number of seconds): this file counts against the home page's
        // budget to the byte, and its readers put a floor under it.
        retryAfterSeconds as number | undefined,
      )
    : new ApiError(
        CODE_OF_STATUS[status] ?? (status >= 500 ? 'internal' : 'bad-request'),
        fallback,
        status,
      );
}

/** The error for a request that never reached the server. */
export function networkError(): ApiError {
  return new ApiError('network-request-failed', NETWORK_MESSAGE, 0);
}

/** The answer's JSON; its text when it is not JSON; undefined when empty. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text;
  }
}

async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...apiHooks.headers?.(),
    ...options.headers,
  };
  const init: RequestInit = { method, headers, credentials: 'include' };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  if (options.signal) init.signal = options.signal;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, init);
  } catch (error) {
    // A cancelled query is not a failure; let TanStack Query see the AbortError as it is.
    if (options.signal?.aborted) throw error;
    throw networkError();
  }

  const body = await readBody(response).catch(() => undefined);
  if (!response.ok) {
    const error = apiErrorOf(response.status, body);
    error.requestId = response.headers.get('x-request-id') ?? undefined;
    apiHooks.onError?.(error);
    throw error;
  }
  options.onHeaders?.(response.headers);
  return body as T;
}

function withBody(method: Method) {
  return <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>(method, path, { ...options, body });
}

/** The one way the web app talks to the API: JSON in and out, cookies (and the bearer token) included. */
export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('GET', path, options),
  post: withBody('POST'),
  put: withBody('PUT'),
  patch: withBody('PATCH'),
  delete: withBody('DELETE'),
};

/** Plain words for any error, for messages shown to people. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return FALLBACK_MESSAGE;
}

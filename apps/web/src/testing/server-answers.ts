import { vi } from 'vitest';

/** What the stubbed server answers to one call. */
export interface Answer {
  status: number;
  body: unknown;
  /** Headers of the answer, e.g. `x-request-id`. */
  headers?: Record<string, string>;
}

/**
 * Stubs `fetch` as the server: each `METHOD /path` answers as given, any other call `otherwise`
 * (a 404 by default). Every call is kept in the array returned, with its JSON body, in order.
 * Vitest puts `fetch` back after each test (`unstubGlobals` in vitest.config.ts).
 */
export function serverAnswers(
  answers: Record<string, Answer>,
  otherwise: Answer = { status: 404, body: {} },
): { call: string; body: unknown }[] {
  const calls: { call: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const call = `${init?.method ?? 'GET'} ${url}`;
    calls.push({ call, body: init?.body ? JSON.parse(init.body as string) : undefined });
    const { status, body, headers } = answers[call] ?? otherwise;
    return Response.json(body, { status, headers });
  });
  return calls;
}

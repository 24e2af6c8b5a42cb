import type { TestClient } from './client.ts';

/** One Server-Sent Event as a client sees it; comments (heartbeats) are counted apart. */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: unknown;
  /** When it arrived (performance.now()). */
  at: number;
}

export interface SseStream {
  status: number;
  headers: Headers;
  events: SseEvent[];
  comments: number;
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  /** The next event (after those already taken by earlier calls) that matches, within `ms`. */
  next(match?: (event: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  /** The id of the last event received, as a browser's EventSource keeps it. */
  lastEventId(): string | undefined;
  close(): void;
}

/**
 * Opens `GET /api/conversations/stream` as `client` and parses what arrives, as EventSource
 * would (fields `id`, `event`, `data`; lines starting with `:` are comments).
 */
export async function openStream(
  client: TestClient,
  options: { lastEventId?: string; query?: string; headers?: Record<string, string> } = {},
): Promise<SseStream> {
  const controller = new AbortController();
  const response = await client.request(`/api/conversations/stream${options.query ?? ''}`, {
    headers: {
      ...options.headers,
      ...(options.lastEventId && { 'last-event-id': options.lastEventId }),
    },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  let comments = 0;
  let lastId: string | undefined;
  let taken = 0;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  let resolveEnded!: () => void;
  const ended = new Promise<void>((resolve) => (resolveEnded = resolve));

  void (async () => {
    if (!response.body || response.status !== 200) return resolveEnded();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let id: string | undefined;
          let event = 'message';
          const data: string[] = [];
          let isComment = true;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            isComment = false;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') id = text;
            else if (field === 'event') event = text;
            else if (field === 'data') data.push(text);
          }
          if (isComment) {
            comments += 1;
            continue;
          }
          if (data.length === 0) continue;
          if (id !== undefined) lastId = id;
          events.push({ id, event, data: JSON.parse(data.join('\n')), at: performance.now() });
          wake();
        }
      }
    } catch {
      // Aborted by close().
    }
    resolveEnded();
    wake();
  })();

  let done = false;
  void ended.then(() => (done = true));

  async function next(match: (event: SseEvent) => boolean = () => true, ms = 5000) {
    const deadline = Date.now() + ms;
    for (;;) {
      while (taken < events.length) {
        const event = events[taken]!;
        taken += 1;
        if (match(event)) return event;
      }
      if (done) throw new Error(`the stream ended; events so far: ${JSON.stringify(events)}`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`no matching event within ${ms} ms; events: ${JSON.stringify(events)}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, left);
        function finish() {
          clearTimeout(timer);
          waiters.delete(finish);
          resolve();
        }
        waiters.add(finish);
      });
    }
  }

  return {
    status: response.status,
    headers: response.headers,
    events,
    get comments() {
      return comments;
    },
    ended,
    next,
    lastEventId: () => lastId,
    close: () => controller.abort(),
  };
}

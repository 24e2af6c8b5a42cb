/**
 * The live stream of the signed-in person's conversations (`GET /api/conversations/stream`,
 * Server-Sent Events), one per tab while anyone in it needs it (the header's Messages link does
 * while someone is signed in). Events update the query cache: a new message goes straight into
 * its thread, and the lists and counts it changes load again. The browser reconnects by itself,
 * sending the last event's id, and the server replays what was missed; if the stream fails for
 * good (the server was away), a new one starts from that id after a pause.
 */
import type {
  LiveConversationEvent,
  LiveMessageEvent,
  LiveReadEvent,
  LiveReadyEvent,
  Message,
} from '@carmarket/shared';
import type { QueryClient, QueryKey } from '@tanstack/react-query';

import { addToThread } from '../api/get-messages';
import { messageKeys } from '../api/query-keys';

const STREAM_URL = '/api/conversations/stream';
const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 60_000;

type MessageListener = (message: Message) => void;
const messageListeners = new Set<MessageListener>();

/** Hears every message the stream brings (the open thread announces the other person's). */
export function onLiveMessage(listener: MessageListener): () => void {
  messageListeners.add(listener);
  return () => messageListeners.delete(listener);
}

let connection: { users: number; stop: () => void } | undefined;

/** Starts the stream if it is not running; answers the function that lets it go. */
export function holdLiveConnection(queryClient: QueryClient): () => void {
  if (connection) {
    connection.users += 1;
  } else {
    const stop = connect(queryClient);
    connection = { users: 1, stop };
  }
  let released = false;
  return () => {
    if (released || !connection) return;
    released = true;
    connection.users -= 1;
    if (connection.users === 0) {
      connection.stop();
      connection = undefined;
    }
  };
}

function connect(queryClient: QueryClient): () => void {
  let source: EventSource | undefined;
  let lastEventId = '';
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const stale = new Map<string, QueryKey>();

  // Several events in a burst (a replay) refresh each list once.
  function refresh(...keys: QueryKey[]) {
    for (const key of keys) stale.set(JSON.stringify(key), key);
    refreshTimer ??= setTimeout(() => {
      refreshTimer = undefined;
      for (const key of stale.values()) void queryClient.invalidateQueries({ queryKey: key });
      stale.clear();
    }, 100);
  }

  function listen(name: string, handle: (data: unknown) => void) {
    source?.addEventListener(name, (event) => {
      const message = event as MessageEvent<string>;
      if (message.lastEventId) lastEventId = message.lastEventId;
      try {
        handle(JSON.parse(message.data));
      } catch {
        // A malformed event changes nothing; the next list load shows the truth.
      }
    });
  }

  function open() {
    if (stopped) return;
    const url = lastEventId
      ? `${STREAM_URL}?lastEventId=${encodeURIComponent(lastEventId)}`
      : STREAM_URL;
    source = new EventSource(url, { withCredentials: true });
    listen('ready', (data) => {
      retryMs = FIRST_RETRY_MS;
      // A fresh start, not a resume: anything on screen, open threads too, may have changed
      // between its loading and now.
      if (!(data as LiveReadyEvent).resumed) {
        void queryClient.invalidateQueries({ queryKey: messageKeys.all });
      }
    });
    // Too much was missed to replay: everything loads again, open threads too.
    listen('reset', () => void queryClient.invalidateQueries({ queryKey: messageKeys.all }));
    listen('message', (data) => {
      const { conversationId, message } = data as LiveMessageEvent;
      addToThread(queryClient, message);
      for (const listener of messageListeners) listener(message);
      refresh(
        messageKeys.unread,
        messageKeys.conversations,
        messageKeys.conversation(conversationId),
      );
    });
    listen('read', (data) => {
      const { conversationId } = data as LiveReadEvent;
      refresh(
        messageKeys.unread,
        messageKeys.conversations,
        messageKeys.conversation(conversationId),
      );
    });
    listen('conversation', (data) => {
      const { conversationId } = data as LiveConversationEvent;
      refresh(messageKeys.conversations, messageKeys.conversation(conversationId));
    });
    // Ended for a newer tab of this person (past the server's ten): coming straight back would
    // end that one in turn, so this tab waits until it is shown again.
    listen('superseded', () => {
      source?.close();
      document.addEventListener('visibilitychange', reopenWhenShown);
    });
    source.onerror = () => {
      // CONNECTING: the browser retries by itself. CLOSED: it gave up (an error answer).
      if (!source || source.readyState !== EventSource.CLOSED || stopped) return;
      source.close();
      retryTimer = setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    };
  }

  function reopenWhenShown() {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', reopenWhenShown);
    open();
  }

  open();
  return () => {
    stopped = true;
    document.removeEventListener('visibilitychange', reopenWhenShown);
    clearTimeout(retryTimer);
    clearTimeout(refreshTimer);
    source?.close();
  };
}

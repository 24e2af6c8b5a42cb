import type { Message, MessagePage } from '@carmarket/shared';
import { useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { messageKeys } from './query-keys';

export type Thread = InfiniteData<MessagePage, unknown>;

/**
 * `GET /api/conversations/:id/messages`: the thread, the newest page first; "older" pages come
 * after it. Live messages are added to the newest page (addToThread), so no refetch is needed.
 */
export function useThread(id: string) {
  return useInfiniteQuery({
    queryKey: messageKeys.thread(id),
    queryFn: ({ pageParam, signal }) =>
      api.get<MessagePage>(
        `/conversations/${encodeURIComponent(id)}/messages${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
        { signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: id !== '',
    // New messages arrive by the live stream; a refetch would only repeat them.
    staleTime: Infinity,
  });
}

/** The thread's messages in reading order, oldest first. */
export function messagesOf(thread: Thread | undefined): Message[] {
  return thread ? [...thread.pages].reverse().flatMap((page) => page.items) : [];
}

/** Adds a message to a loaded thread (once: the stream and the send answer may both bring it). */
export function addToThread(queryClient: QueryClient, message: Message): void {
  queryClient.setQueryData<Thread>(messageKeys.thread(message.conversationId), (thread) => {
    if (!thread || thread.pages.length === 0) return thread;
    if (thread.pages.some((page) => page.items.some((item) => item._id === message._id))) {
      return thread;
    }
    const [newest, ...older] = thread.pages;
    return { ...thread, pages: [{ ...newest!, items: [...newest!.items, message] }, ...older] };
  });
}

import {
  formatMoney,
  type Conversation,
  type ListingStatus,
  type Message,
} from '@carmarket/shared';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';

import { LoadError } from '../../../components/ui/load-error';
import { LoadingStatus, PageState } from '../../../components/ui/page-state';
import { useConversation } from '../api/get-conversation';
import { messagesOf, useThread } from '../api/get-messages';
import { useMarkRead } from '../api/mark-read';
import { closedReasonText } from '../closed-reason';
import { dayHeading, timeOf } from '../format';
import { onLiveMessage } from '../live/live-connection';
import { BlockBuyerButton } from './block-buyer-button';
import { Composer } from './composer';
import { ReportButton } from './report-dialog';

const STATUS_WORDS: Partial<Record<ListingStatus, string>> = {
  reserved: 'Reserved',
  sold: 'Sold',
  withdrawn: 'Withdrawn',
  removed: 'Removed',
};

/** The car the conversation is about, on top of the thread, with what one can do here. */
function CarCard({ conversation }: { conversation: Conversation }) {
  const { car } = conversation;
  const status = STATUS_WORDS[car.status];
  return (
    <div className="flex flex-wrap items-center gap-3 border-b border-base-300 p-3 sm:p-4">
      {car.img ? (
        <img
          src={car.img}
          alt=""
          width={96}
          height={64}
          className="aspect-[3/2] w-20 shrink-0 rounded-lg bg-base-200 object-cover sm:w-24"
        />
      ) : (
        <span className="aspect-[3/2] w-20 shrink-0 rounded-lg bg-base-200 sm:w-24" />
      )}
      {/* basis-48: on a phone the buttons wrap below rather than squeeze the name to a letter a line. */}
      <div className="min-w-0 flex-1 basis-48">
        <h2 className="leading-6 font-bold break-words">
          <Link to={`/listing/${car._id}`} className="hover:text-primary hover:underline">
            {car.name}
          </Link>
        </h2>
        <p className="flex flex-wrap items-center gap-x-2 text-sm">
          <span className="font-semibold text-primary">
            {formatMoney(car.reprice, car.currency)}
          </span>
          {status && <span className="badge badge-sm badge-ghost">{status}</span>}
        </p>
        <p className="text-sm text-muted">
          {conversation.you === 'buyer'
            ? `Seller: ${conversation.sellerName}`
            : conversation.you === 'seller'
              ? `Buyer: ${conversation.buyerName}`
              : `Between ${conversation.buyerName} (buyer) and ${conversation.sellerName} (seller)`}
        </p>
      </div>
      {conversation.you && (
        <div className="flex flex-wrap gap-2">
          {conversation.you === 'seller' && <BlockBuyerButton conversation={conversation} />}
          <ReportButton conversation={conversation} />
        </div>
      )}
    </div>
  );
}

function MessageItem({ message, seen }: { message: Message; seen: boolean }) {
  if (message.kind === 'booking') {
    return (
      <li className="my-2 flex justify-center" data-testid="message">
        <p className="max-w-md rounded-box bg-base-200 px-3 py-2 text-center text-sm">
          <span className="font-semibold">{message.mine ? 'You' : message.senderName}: </span>
          {message.body}
          <span className="block text-xs text-muted">{timeOf(message.createdAt)}</span>
        </p>
      </li>
    );
  }
  return (
    <li
      className={`flex flex-col ${message.mine ? 'items-end' : 'items-start'}`}
      data-testid="message"
    >
      <div
        className={`max-w-[85%] rounded-2xl px-3 py-2 sm:max-w-[75%] ${
          message.mine ? 'bg-primary text-primary-content' : 'bg-base-200'
        }`}
      >
        <p className="sr-only">{message.mine ? 'You' : message.senderName} wrote:</p>
        {/* Plain text as written: line breaks kept, links and markup shown as text. */}
        <p className="leading-6 whitespace-pre-wrap wrap-anywhere">{message.body}</p>
      </div>
      <p className="mt-0.5 px-1 text-xs text-muted">
        {!message.mine && <span>{message.senderName} · </span>}
        <time dateTime={message.createdAt}>{timeOf(message.createdAt)}</time>
        {seen && <span data-testid="seen"> · Seen</span>}
      </p>
    </li>
  );
}

/**
 * Keeps the newest message in view: at the bottom when the thread opens and when a message
 * arrives while the reader is near the bottom (or sent it); older pages load without a jump.
 */
function useStickToBottom(box: RefObject<HTMLDivElement | null>, messages: Message[]) {
  const first = messages[0]?._id;
  const last = messages.at(-1);
  const previous = useRef<{ first?: string; last?: string; height: number; nearBottom: boolean }>({
    height: 0,
    nearBottom: true,
  });
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const before = previous.current;
    if (
      before.last === undefined ||
      (last && last._id !== before.last && (before.nearBottom || last.mine))
    ) {
      element.scrollTop = element.scrollHeight;
    } else if (first !== before.first && last?._id === before.last) {
      element.scrollTop += element.scrollHeight - before.height;
    }
    previous.current = { first, last: last?._id, height: element.scrollHeight, nearBottom: true };
  }, [box, first, last]);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const onScroll = () => {
      previous.current.nearBottom =
        element.scrollHeight - element.scrollTop - element.clientHeight < 80;
      previous.current.height = element.scrollHeight;
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [box]);
}

function ThreadSkeleton() {
  return (
    <div aria-hidden="true" className="space-y-4 p-4">
      <div className="h-16 w-2/3 animate-pulse rounded-2xl bg-base-300" />
      <div className="ml-auto h-12 w-1/2 animate-pulse rounded-2xl bg-base-300" />
      <div className="h-10 w-3/5 animate-pulse rounded-2xl bg-base-300" />
    </div>
  );
}

function Messages({ conversation }: { conversation: Conversation }) {
  const thread = useThread(conversation._id);
  const box = useRef<HTMLDivElement>(null);
  const messages = messagesOf(thread.data);
  useStickToBottom(box, messages);

  if (thread.isPending) {
    return (
      <div className="flex-1">
        <LoadingStatus skeleton={<ThreadSkeleton />}>Loading the messages…</LoadingStatus>
      </div>
    );
  }
  if (thread.isError) {
    return (
      <div className="flex-1 p-4">
        <LoadError
          what="the messages"
          error={thread.error}
          retrying={thread.isFetching}
          onRetry={() => void thread.refetch()}
        />
      </div>
    );
  }
  const last = messages.at(-1);
  return (
    <div
      ref={box}
      tabIndex={0}
      role="region"
      aria-label={`Messages about the ${conversation.car.name}`}
      className="min-h-48 flex-1 overflow-y-auto px-3 py-4 focus-visible:outline-2 sm:px-4"
      data-testid="thread"
    >
      {thread.hasNextPage && (
        <div className="mb-4 text-center">
          <button
            type="button"
            className="button button-outline button-sm"
            disabled={thread.isFetchingNextPage}
            onClick={() => void thread.fetchNextPage()}
          >
            {thread.isFetchingNextPage ? 'Loading earlier messages…' : 'Show earlier messages'}
          </button>
        </div>
      )}
      <ol className="grid grid-cols-1 gap-2">
        {messages.map((message, index) => {
          const day = dayHeading(message.createdAt);
          const newDay = index === 0 || dayHeading(messages[index - 1]!.createdAt) !== day;
          return (
            <DayAndMessage
              key={message._id}
              day={newDay ? day : null}
              message={message}
              seen={message === last && message.mine && conversation.otherReadUpTo === message._id}
            />
          );
        })}
      </ol>
    </div>
  );
}

function DayAndMessage({
  day,
  message,
  seen,
}: {
  day: string | null;
  message: Message;
  seen: boolean;
}) {
  return (
    <>
      {day && (
        <li className="my-2 text-center text-xs font-semibold text-muted" aria-hidden="true">
          {day}
        </li>
      )}
      <MessageItem message={message} seen={seen} />
    </>
  );
}

/** Reads out messages from the other person as they arrive (the page is not reloaded). */
function LiveAnnouncer({ conversationId }: { conversationId: string }) {
  const [announcement, setAnnouncement] = useState('');
  useEffect(
    () =>
      onLiveMessage((message) => {
        if (message.conversationId !== conversationId || message.mine) return;
        setAnnouncement(`New message from ${message.senderName}: ${message.body}`);
      }),
    [conversationId],
  );
  return (
    <div aria-live="polite" aria-atomic="true" className="sr-only" data-testid="live-region">
      {announcement}
    </div>
  );
}

/**
 * Marks the conversation read while it is on screen and has something unread: once for each new
 * unread count (a failure is not retried in a loop; the next message tries again).
 */
function useMarkReadWhileShown(conversation: Conversation | undefined) {
  const { mutate } = useMarkRead();
  const id = conversation?._id;
  const unread = conversation?.you != null ? conversation.unread : 0;
  useEffect(() => {
    if (!id || unread === 0) return;
    let asked = false;
    const read = () => {
      if (asked || document.visibilityState !== 'visible') return;
      asked = true;
      mutate(id);
    };
    read();
    document.addEventListener('visibilitychange', read);
    return () => document.removeEventListener('visibilitychange', read);
  }, [id, unread, mutate]);
}

/**
 * Keeps the composer on screen. Where the room left below the thread's top holds a usable
 * thread (28rem or more), the thread takes that room, up to 44rem: a banner above it (an
 * unconfirmed address) shortens it instead of pushing the composer down. Where it does not (a
 * phone), the thread takes the screen below the header and opening it scrolls the page just
 * enough to show its composer. Measured again whenever the page's size changes (a banner or an
 * alert above comes or goes, the window turns).
 */
function useFitsTheScreen(element: HTMLElement | null, id: string, composer: boolean) {
  useLayoutEffect(() => {
    if (!element) return;
    const fit = () => {
      const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      const top = element.getBoundingClientRect().top + window.scrollY;
      const room = window.innerHeight - top - rem;
      const screen = window.innerHeight - 5 * rem;
      const height = Math.min(44 * rem, room >= 28 * rem ? room : Math.max(28 * rem, screen));
      element.style.height = `${height}px`;
    };
    fit();
    window.addEventListener('resize', fit);
    // In the next frame: resizing the thread inside the observer's callback would report a loop.
    let frame = 0;
    const above = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(fit);
    });
    above.observe(document.body);
    return () => {
      window.removeEventListener('resize', fit);
      above.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [element]);
  useEffect(() => {
    if (composer && element && element.getBoundingClientRect().bottom > window.innerHeight) {
      element.scrollIntoView({ block: 'nearest' });
    }
  }, [element, id, composer]);
}

/** One conversation: its car, its messages (live), and the composer while it is open. */
export function ThreadView({ id }: { id: string }) {
  const query = useConversation(id);
  const conversation = query.data;
  useMarkReadWhileShown(conversation);
  // A state, not a ref: the section is drawn anew after a loading error, and measured again.
  const [section, setSection] = useState<HTMLElement | null>(null);
  const closed = conversation ? closedReasonText(conversation) : undefined;
  useFitsTheScreen(section, id, Boolean(conversation && conversation.you !== null && !closed));

  return (
    <PageState
      query={query}
      loading="Loading the conversation…"
      skeleton={<ThreadSkeleton />}
      what="this conversation"
    >
      {(conversation) => (
        <section
          ref={setSection}
          aria-labelledby={`thread-${id}`}
          className="flex h-[min(44rem,calc(100dvh-9rem))] min-h-[28rem] flex-col rounded-box border border-base-300 bg-base-100"
        >
          <h2 id={`thread-${id}`} className="sr-only">
            {conversation.otherName
              ? `Conversation with ${conversation.otherName}`
              : 'Reported conversation'}
          </h2>
          <CarCard conversation={conversation} />
          <Messages conversation={conversation} />
          <LiveAnnouncer conversationId={id} />
          {conversation.you === null ? (
            <p className="border-t border-base-300 bg-base-200 p-4 text-sm">
              A member reported this conversation, so administrators may read it. Administrators do
              not write in conversations.
            </p>
          ) : closed ? (
            <p
              className="border-t border-base-300 bg-base-200 p-4 font-semibold"
              data-testid="closed-reason"
            >
              {closed}
            </p>
          ) : (
            <Composer key={id} conversationId={id} />
          )}
        </section>
      )}
    </PageState>
  );
}

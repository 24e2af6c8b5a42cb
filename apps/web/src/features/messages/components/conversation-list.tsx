import type { Conversation } from '@carmarket/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { PageState } from '../../../components/ui/page-state';
import { useConversations } from '../api/get-conversations';
import { shortWhen } from '../format';

/** What the list shows of the last message: "You: …" for one's own, the event line as it is. */
function preview(conversation: Conversation): string {
  const last = conversation.lastMessage;
  if (!last) return '';
  return last.mine && last.kind === 'text' ? `You: ${last.body}` : last.body;
}

function ConversationItem({
  conversation,
  selected,
}: {
  conversation: Conversation;
  selected: boolean;
}) {
  const { car, unread } = conversation;
  return (
    <li>
      <Link
        to={`/dashboard/messages/${conversation._id}`}
        aria-current={selected ? 'page' : undefined}
        data-testid="conversation-item"
        className={`flex gap-3 rounded-box p-3 hover:bg-base-200 ${selected ? 'bg-primary-soft' : ''}`}
      >
        {car.img ? (
          <img
            src={car.img}
            alt=""
            width={64}
            height={43}
            loading="lazy"
            decoding="async"
            className="aspect-[3/2] w-16 shrink-0 self-start rounded-lg bg-base-200 object-cover"
          />
        ) : (
          <span className="aspect-[3/2] w-16 shrink-0 self-start rounded-lg bg-base-200" />
        )}
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline justify-between gap-2">
            <span className={`truncate ${unread > 0 ? 'font-bold' : 'font-semibold'}`}>
              {conversation.otherName ?? `${conversation.buyerName} and ${conversation.sellerName}`}
            </span>
            <time dateTime={conversation.lastActivityAt} className="shrink-0 text-xs text-muted">
              {shortWhen(conversation.lastActivityAt)}
            </time>
          </span>
          <span className="block truncate text-sm">{car.name}</span>
          <span className="flex items-center gap-2">
            <span className="min-w-0 flex-1 truncate text-sm text-muted">
              {preview(conversation)}
            </span>
            {unread > 0 && (
              <span className="badge badge-sm badge-error shrink-0">
                {unread}
                <span className="sr-only"> unread</span>
              </span>
            )}
          </span>
        </span>
      </Link>
    </li>
  );
}

function ListSkeleton() {
  return (
    <ul aria-hidden="true" className="grid gap-2">
      {[0, 1, 2, 3].map((n) => (
        <li key={n} className="flex gap-3 p-3">
          <span className="aspect-[3/2] w-16 animate-pulse rounded-lg bg-base-300" />
          <span className="flex-1 space-y-2">
            <span className="block h-4 w-2/3 animate-pulse rounded bg-base-300" />
            <span className="block h-3 w-1/2 animate-pulse rounded bg-base-300" />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** My conversations, newest activity first; the open one marked. */
export function ConversationList({
  selectedId,
  empty,
}: {
  selectedId: string;
  /** What to say when there is none yet (it differs for buyers and sellers). */
  empty: ReactNode;
}) {
  const list = useConversations();
  const { hasNextPage, fetchNextPage, isFetchingNextPage } = list;

  return (
    <PageState
      query={list}
      loading="Loading your conversations…"
      skeleton={<ListSkeleton />}
      what="your conversations"
      isEmpty={(data) => data.pages.every((page) => page.items.length === 0)}
      empty={empty}
    >
      {(data) => (
        <>
          <ul className="grid grid-cols-1 gap-1" aria-label="Conversations, newest first">
            {data.pages
              .flatMap((page) => page.items)
              .map((conversation) => (
                <ConversationItem
                  key={conversation._id}
                  conversation={conversation}
                  selected={conversation._id === selectedId}
                />
              ))}
          </ul>
          {hasNextPage && (
            <button
              type="button"
              className="button button-outline button-sm mt-3 w-full"
              disabled={isFetchingNextPage}
              onClick={() => void fetchNextPage()}
            >
              {isFetchingNextPage ? 'Loading older conversations…' : 'Show older conversations'}
            </button>
          )}
        </>
      )}
    </PageState>
  );
}

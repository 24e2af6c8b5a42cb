import { Link, useParams } from 'react-router';

import { EmptyState } from '../../../components/ui/page-state';
import { useSession } from '../../auth';
import { ConversationList } from '../components/conversation-list';
import { ThreadView } from '../components/thread-view';
import { useOnline } from '../use-online';

function NoConversations({ seller }: { seller: boolean }) {
  return (
    <EmptyState
      title="No conversations yet"
      description={
        seller
          ? 'When buyers ask about your cars, their messages appear here.'
          : 'Ask a seller about a car from its page (“Ask the seller”); your conversations appear here.'
      }
      action={
        !seller && (
          <Link to="/cars" className="button button-primary">
            Find a car
          </Link>
        )
      }
    />
  );
}

/**
 * `/dashboard/messages` and `/dashboard/messages/:id`: the conversations beside the open one on
 * wide screens; on phones the list, or the open conversation with a way back to the list.
 */
/** Who a person's conversations are with: buyers (a seller), sellers (a buyer), or both. */
function talksTo(roles: readonly string[]): string {
  const sells = roles.includes('Seller');
  const buys = roles.includes('Buyer');
  return sells && buys ? 'buyers and sellers' : sells ? 'buyers' : 'sellers';
}

export function MessagesPage() {
  const { id = '' } = useParams();
  const { user } = useSession();
  const online = useOnline();

  // Admins have no conversations of their own; they read reported ones, from Reports.
  if (user?.roles.includes('admin')) {
    return (
      <div className="max-w-4xl">
        <p className="section-eyebrow">Administration</p>
        <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">
          Reported conversation
        </h1>
        <Link to="/dashboard/reports" className="text-link mt-3 mb-6 inline-block text-sm">
          ← All reports
        </Link>
        {id ? (
          <ThreadView id={id} />
        ) : (
          <p className="text-muted">Open a conversation from the Reports page.</p>
        )}
      </div>
    );
  }

  return (
    <div className="max-w-6xl">
      <p className="section-eyebrow">Messages</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">
        Talk to {talksTo(user?.roles ?? [])}
      </h1>
      {!online && (
        <p role="status" className="alert alert-warning mt-4">
          You are offline. New messages will appear when you are back online.
        </p>
      )}
      <div className="mt-6 grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <nav aria-label="Conversations" className={id ? 'hidden min-w-0 lg:block' : 'min-w-0'}>
          <ConversationList
            selectedId={id}
            empty={<NoConversations seller={talksTo(user?.roles ?? []) === 'buyers'} />}
          />
        </nav>
        <div className={id ? 'min-w-0' : 'hidden lg:block'}>
          {id ? (
            <>
              <Link
                to="/dashboard/messages"
                className="text-link mb-3 inline-block text-sm lg:hidden"
              >
                ← All conversations
              </Link>
              <ThreadView id={id} />
            </>
          ) : (
            <div className="flex h-full min-h-48 items-center justify-center rounded-box border border-dashed border-base-300 p-6 text-center text-muted">
              Choose a conversation to read it here.
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

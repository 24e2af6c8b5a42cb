import type { ListingStatus } from '@carmarket/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { toast } from '../../../lib/toast';
import { useSession } from '../../auth';
import { useConversationForCar } from '../api/get-conversations';
import { closedReasonText } from '../closed-reason';
import { AskSellerDialog } from './ask-seller-dialog';

export interface AskableListing {
  _id: string;
  name: string;
  seller: string;
  sellerId: string;
  status: ListingStatus;
}

const GONE: Partial<Record<ListingStatus, string>> = {
  sold: 'This car has been sold.',
  withdrawn: 'The seller withdrew this car.',
  removed: 'This car was removed from CarMarket.',
};

/**
 * "Ask the seller" on a car's page, for buyers (not on their own car): a question in a dialog
 * that starts the conversation. Once there is one, the button leads to it instead.
 */
export function AskSellerButton({
  listing,
  className = '',
  finish,
}: {
  listing: AskableListing;
  className?: string;
  /**
   * Given when a visitor pressed Ask the seller before they had an account, then signed in or
   * registered and came back (decision 028): the dialog opens once, unless they have a
   * conversation about the car already (the button then leads to it), and `finish` is called.
   */
  finish?: (() => void) | undefined;
}) {
  const { user } = useSession();
  const canAsk = !!user?.roles.includes('Buyer') && user.id !== listing.sellerId;
  const existing = useConversationForCar(listing._id, canAsk);
  const [open, setOpen] = useState(false);
  const toFinish = useRef(finish);
  const settled = canAsk && !existing.isPending;
  const hasConversation = !!existing.data;
  useEffect(() => {
    const finished = toFinish.current;
    if (!finished || !settled) return;
    toFinish.current = undefined;
    if (!hasConversation && !GONE[listing.status]) setOpen(true);
    finished();
  }, [settled, hasConversation, listing.status]);
  const navigate = useNavigate();
  const id = useId();

  if (!canAsk) return null;
  if (existing.data) {
    const closed = closedReasonText(existing.data);
    return (
      <div className={className}>
        <Link
          to={`/dashboard/messages/${existing.data._id}`}
          // Wraps: a long seller name on a phone would be cut off at both ends on one line.
          className="button button-outline h-auto min-h-11 w-full py-2 text-center whitespace-normal"
        >
          Your conversation with {listing.seller}
          {existing.data.unread > 0 && (
            <span className="badge badge-sm badge-error">
              {existing.data.unread}
              <span className="sr-only"> unread</span>
            </span>
          )}
        </Link>
        {closed && <p className="mt-2 text-sm leading-5 text-muted">{closed}</p>}
      </div>
    );
  }

  const gone = GONE[listing.status];

  function handleSent(conversationId: string) {
    setOpen(false);
    toast.success(`Sent to ${listing.seller}`, {
      label: 'Open',
      href: `/dashboard/messages/${conversationId}`,
      onClick: () => void navigate(`/dashboard/messages/${conversationId}`),
    });
  }

  return (
    <div className={className}>
      <button
        type="button"
        className="button button-outline w-full"
        aria-haspopup={gone ? undefined : 'dialog'}
        aria-disabled={gone ? true : undefined}
        aria-describedby={gone ? `${id}-why` : undefined}
        onClick={() => {
          if (gone) return;
          setOpen(true);
        }}
      >
        Ask the seller
      </button>
      {gone && (
        <p id={`${id}-why`} className="mt-2 text-sm leading-5 text-muted">
          {gone} You can no longer ask about it.
        </p>
      )}
      <AskSellerDialog
        car={listing}
        open={open}
        onClose={() => setOpen(false)}
        onSent={handleSent}
        title={`Ask ${listing.seller} about the ${listing.name}`}
        description="Your question starts a conversation under Messages; the seller is told by email if they have not read it within a few minutes."
        label="Your question"
        placeholder="Has the cambelt been done? Can I see it on Saturday?"
      />
    </div>
  );
}

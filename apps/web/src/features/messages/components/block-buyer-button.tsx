import type { Conversation } from '@carmarket/shared';
import { useState } from 'react';

import { ConfirmDialog } from '../../../components/ui/dialog';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useSetBuyerBlocked } from '../api/block-buyer';

/** The seller blocks the buyer (asked first), or unblocks them at once. */
export function BlockBuyerButton({ conversation }: { conversation: Conversation }) {
  const [asking, setAsking] = useState(false);
  const setBlocked = useSetBuyerBlocked();
  const blocked = conversation.closedReason === 'blocked';
  const buyer = conversation.buyerName;

  function change(block: boolean) {
    setBlocked.mutate(
      { conversationId: conversation._id, blocked: block },
      {
        onSuccess: () => {
          setAsking(false);
          toast.success(block ? `${buyer} is blocked` : `${buyer} is unblocked`);
        },
      },
    );
  }

  if (blocked) {
    return (
      <button
        type="button"
        className="button button-outline button-sm"
        disabled={setBlocked.isPending}
        onClick={() => change(false)}
      >
        {setBlocked.isPending ? 'Unblocking…' : 'Unblock'}
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        className="button button-outline button-sm"
        aria-haspopup="dialog"
        onClick={() => {
          setBlocked.reset();
          setAsking(true);
        }}
      >
        Block buyer
      </button>
      <ConfirmDialog
        open={asking}
        onClose={() => setAsking(false)}
        onConfirm={() => change(true)}
        title={`Block ${buyer}?`}
        description={`${buyer} will not be able to send you messages about any of your cars, and is told so. You can unblock them here at any time.`}
        confirmLabel="Block"
        busyLabel="Blocking…"
        busy={setBlocked.isPending}
        danger
        error={setBlocked.isError ? errorMessage(setBlocked.error) : null}
      />
    </>
  );
}

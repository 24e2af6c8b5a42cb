import {
  formatMoney,
  ResolveDisputeSchema,
  type Dispute,
  type DisputeOutcome,
} from '@carmarket/shared';

import { ConfirmDialog } from '../../../components/ui/dialog';
import { ReasonField, useReasonField } from '../../../components/ui/reason-field';
import { useMutateOnce } from '../../../lib/use-mutate-once';
import { useResolveDispute } from '../api/disputes';

export interface Ruling {
  dispute: Dispute;
  outcome: DisputeOutcome;
}

/**
 * What a ruling does, in words, for the dialog's title and the page's message after it; `done`
 * reads the dispute as the server answered it: a refund the provider has not finished yet leaves
 * it `resolving`, and the payout sweep finishes it.
 */
export function rulingWords({ dispute, outcome }: Ruling, answered?: Dispute) {
  const amount = formatMoney(dispute.amount, dispute.currency);
  return outcome === 'release'
    ? {
        title: `Release the money to ${dispute.sellerName}?`,
        effect: `The ${amount} the buyer paid for the ${dispute.carName} is released to ${dispute.sellerName}, less our fee.`,
        confirm: 'Release to seller',
        busy: 'Releasing…',
        done: `The money for the ${dispute.carName} was released to ${dispute.sellerName}.`,
      }
    : {
        title: `Refund ${dispute.buyerName}?`,
        effect: `${amount} goes back to ${dispute.buyerName}'s card; ${dispute.sellerName} is not paid for the ${dispute.carName}.`,
        confirm: 'Refund buyer',
        busy: 'Refunding…',
        done:
          answered?.status === 'resolving'
            ? `The refund of ${amount} to ${dispute.buyerName} for the ${dispute.carName} is under way; it finishes by itself.`
            : `${dispute.buyerName} was refunded ${amount} for the ${dispute.carName}.`,
      };
}

/**
 * An admin's ruling on a dispute: the money to the seller or back to the buyer, with a note
 * (required; the shared schema checks it, and the server again) mailed to both.
 */
export function ResolveDisputeDialog({
  ruling,
  onClose,
  onResolved,
}: {
  ruling: Ruling | null;
  onClose: () => void;
  /** With the dispute as the server answered it. */
  onResolved: (ruling: Ruling, answered: Dispute) => void;
}) {
  const resolve = useResolveDispute();
  const resolveOnce = useMutateOnce(resolve);
  const note = useReasonField('note');

  function handleClose() {
    resolve.reset();
    note.reset();
    onClose();
  }

  function handleConfirm() {
    if (!ruling) return;
    const input = note.check(
      ResolveDisputeSchema.safeParse({ outcome: ruling.outcome, note: note.value }),
    );
    if (!input) return;
    resolveOnce(
      { id: ruling.dispute._id, ...input },
      {
        onSuccess: (answered) => {
          handleClose();
          onResolved(ruling, answered);
        },
        onError: note.showServerError,
      },
    );
  }

  const words = ruling ? rulingWords(ruling) : null;

  return (
    <ConfirmDialog
      open={ruling !== null}
      onClose={handleClose}
      onConfirm={handleConfirm}
      title={words?.title ?? ''}
      description={words && <>{words.effect} This cannot be undone.</>}
      confirmLabel={words?.confirm ?? ''}
      busyLabel={words?.busy ?? ''}
      busy={resolve.isPending}
      danger={ruling?.outcome === 'refund'}
      error={note.dialogError(resolve)}
    >
      <ReasonField
        reason={note}
        label="Note, for the buyer and the seller"
        hint="Why you decided so: 3 to 2,000 characters, mailed to both."
        maxLength={2000}
      />
    </ConfirmDialog>
  );
}

import {
  formatMoney,
  ResolveDisputeSchema,
  type Dispute,
  type DisputeOutcome,
} from '@carmarket/shared';
import { useRef, useState } from 'react';

import { ConfirmDialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { fieldOfError } from '../../../lib/use-server-error';
import { useResolveDispute } from '../api/disputes';

export interface Ruling {
  dispute: Dispute;
  outcome: DisputeOutcome;
}

/** What a ruling does, in words, for the dialog's title and the page's message after it. */
export function rulingWords({ dispute, outcome }: Ruling) {
  const amount = formatMoney(dispute.amount, dispute.currency);
  return outcome === 'release'
    ? {
        title: `Release the money to ${dispute.sellerName}?`,
        effect: `${dispute.sellerName} is paid for the ${dispute.carName}, less our fee.`,
        confirm: 'Release to seller',
        busy: 'Releasing…',
        done: `The money for the ${dispute.carName} was released to ${dispute.sellerName}.`,
      }
    : {
        title: `Refund ${dispute.buyerName}?`,
        effect: `${amount} goes back to ${dispute.buyerName}'s card; ${dispute.sellerName} is not paid for the ${dispute.carName}.`,
        confirm: 'Refund buyer',
        busy: 'Refunding…',
        done: `${dispute.buyerName} was refunded ${amount} for the ${dispute.carName}.`,
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
  onResolved: (ruling: Ruling) => void;
}) {
  const resolve = useResolveDispute();
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const noteRef = useRef<HTMLTextAreaElement>(null);

  function handleClose() {
    resolve.reset();
    setNote('');
    setNoteError(undefined);
    onClose();
  }

  function showNoteError(message: string) {
    setNoteError(message);
    noteRef.current?.focus();
  }

  function handleConfirm() {
    if (!ruling) return;
    const parsed = ResolveDisputeSchema.safeParse({ outcome: ruling.outcome, note });
    if (!parsed.success) {
      showNoteError(parsed.error.issues[0]?.message ?? 'Note is required');
      return;
    }
    setNoteError(undefined);
    resolve.mutate(
      { id: ruling.dispute._id, ...parsed.data },
      {
        onSuccess: () => {
          handleClose();
          onResolved(ruling);
        },
        onError: (problem) => {
          if (fieldOfError(problem, { note: 'note' })) showNoteError(errorMessage(problem));
        },
      },
    );
  }

  const words = ruling ? rulingWords(ruling) : null;
  const serverError =
    resolve.isError && !fieldOfError(resolve.error, { note: 'note' })
      ? errorMessage(resolve.error)
      : null;

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
      error={serverError}
    >
      <Field
        label="Note, for the buyer and the seller"
        hint="Why you decided so: 3 to 2,000 characters, mailed to both."
        error={noteError}
      >
        {(control) => (
          <textarea
            {...control}
            ref={noteRef}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            rows={4}
            maxLength={2000}
            required
            className="textarea w-full"
            data-autofocus
          />
        )}
      </Field>
    </ConfirmDialog>
  );
}

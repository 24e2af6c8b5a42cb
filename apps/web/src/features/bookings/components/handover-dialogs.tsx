import { formatMoney, OpenDisputeSchema, type Booking } from '@carmarket/shared';
import { useRef, useState } from 'react';

import { ConfirmDialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { fieldOfError } from '../../../lib/use-server-error';
import { useConfirmHandover, useOpenDispute } from '../api/handover';

/** After the dialog closed and the list shows the new state: focus goes to its words. */
type Done = (booking: Booking) => void;

/** The buyer confirms they have the car: the seller is paid, for good. */
export function ConfirmHandoverDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: Booking | null;
  onClose: () => void;
  onDone: Done;
}) {
  const confirm = useConfirmHandover();

  function handleClose() {
    confirm.reset();
    onClose();
  }

  function handleConfirm() {
    if (!booking) return;
    confirm.mutate(booking._id, {
      onSuccess: () => {
        toast.success(`Hand-over confirmed; ${booking.sellerName} is paid.`);
        handleClose();
        onDone(booking);
      },
    });
  }

  const share = booking?.handover
    ? formatMoney(booking.handover.sellerCents, booking.currency)
    : null;
  return (
    <ConfirmDialog
      open={booking !== null}
      onClose={handleClose}
      onConfirm={handleConfirm}
      title="Confirm hand-over?"
      description={
        booking && (
          <>
            Confirm only once you have the{' '}
            <strong className="text-base-content">{booking.name}</strong> and its papers.{' '}
            {booking.sellerName} is then paid{share ? ` ${share}` : ''}. This cannot be undone: you
            can no longer report a problem with this booking.
          </>
        )
      }
      confirmLabel="Confirm hand-over"
      cancelLabel="Not yet"
      busyLabel="Confirming…"
      busy={confirm.isPending}
      error={confirm.isError ? errorMessage(confirm.error) : null}
    />
  );
}

/** The buyer reports a problem: the money waits while an administrator looks at it. */
export function ReportProblemDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: Booking | null;
  onClose: () => void;
  onDone: Done;
}) {
  const report = useOpenDispute();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const reasonRef = useRef<HTMLTextAreaElement>(null);

  function handleClose() {
    report.reset();
    setReason('');
    setReasonError(undefined);
    onClose();
  }

  function showReasonError(message: string) {
    setReasonError(message);
    reasonRef.current?.focus();
  }

  function handleConfirm() {
    if (!booking) return;
    const parsed = OpenDisputeSchema.safeParse({ reason });
    if (!parsed.success) {
      showReasonError(parsed.error.issues[0]?.message ?? 'Reason is required');
      return;
    }
    setReasonError(undefined);
    report.mutate(
      { id: booking._id, ...parsed.data },
      {
        onSuccess: () => {
          toast.success('Problem reported. An administrator will look at it.');
          handleClose();
          onDone(booking);
        },
        onError: (problem) => {
          if (fieldOfError(problem, { reason: 'reason' })) showReasonError(errorMessage(problem));
        },
      },
    );
  }

  const serverError =
    report.isError && !fieldOfError(report.error, { reason: 'reason' })
      ? errorMessage(report.error)
      : null;

  return (
    <ConfirmDialog
      open={booking !== null}
      onClose={handleClose}
      onConfirm={handleConfirm}
      title="Report a problem"
      description={
        booking && (
          <>
            Something wrong with the <strong className="text-base-content">{booking.name}</strong>,
            or no hand-over? Tell us what happened. {booking.sellerName} is not paid while an
            administrator looks at it; they decide whether the money goes to the seller or back to
            you.
          </>
        )
      }
      confirmLabel="Report problem"
      busyLabel="Reporting…"
      busy={report.isPending}
      danger
      error={serverError}
    >
      <Field label="What went wrong" hint="10 to 2,000 characters." error={reasonError}>
        {(control) => (
          <textarea
            {...control}
            ref={reasonRef}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            rows={5}
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

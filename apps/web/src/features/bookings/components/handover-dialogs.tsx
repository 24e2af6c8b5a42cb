import { formatMoney, OpenDisputeSchema, type Booking } from '@carmarket/shared';

import { ConfirmDialog } from '../../../components/ui/dialog';
import { ReasonField, useReasonField } from '../../../components/ui/reason-field';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useMutateOnce } from '../../../lib/use-mutate-once';
import { useConfirmHandover, useOpenDispute } from '../api/handover';

/** After the dialog closed and the list shows the new state: focus goes to its words. */
type Done = (booking: Booking) => void;

/**
 * The buyer confirms they have the car: the money is released to the seller, for good. (Whether
 * it is sent at once depends on the seller's payout account, which is theirs to add.)
 */
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
  const confirmOnce = useMutateOnce(confirm);

  function handleClose() {
    confirm.reset();
    onClose();
  }

  function handleConfirm() {
    if (!booking) return;
    confirmOnce(booking._id, {
      onSuccess: () => {
        toast.success(`Hand-over confirmed: the money is released to ${booking.sellerName}.`);
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
            <strong className="text-base-content">{booking.name}</strong> and its papers. The money
            is then released to {booking.sellerName}
            {share ? ` (${share} after our fee)` : ''}. This cannot be undone: you can no longer
            report a problem with this booking.
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
  const reportOnce = useMutateOnce(report);
  const reason = useReasonField('reason');

  function handleClose() {
    report.reset();
    reason.reset();
    onClose();
  }

  function handleConfirm() {
    if (!booking) return;
    const input = reason.check(OpenDisputeSchema.safeParse({ reason: reason.value }));
    if (!input) return;
    reportOnce(
      { id: booking._id, ...input },
      {
        onSuccess: () => {
          toast.success('Problem reported. An administrator will look at it.');
          handleClose();
          onDone(booking);
        },
        onError: reason.showServerError,
      },
    );
  }

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
      error={reason.dialogError(report)}
    >
      <ReasonField
        reason={reason}
        label="What went wrong"
        hint="10 to 2,000 characters."
        rows={5}
        maxLength={2000}
      />
    </ConfirmDialog>
  );
}

import { RemoveCarFormSchema } from '@carmarket/shared';
import type { QueryClient } from '@tanstack/react-query';

import { ConfirmDialog } from '../../../components/ui/dialog';
import { ReasonField, useReasonField } from '../../../components/ui/reason-field';
import { toast } from '../../../lib/toast';
import { useRemoveCar } from '../api/remove-car';

/** What the dialog needs of a car, on the car page and in the admin's view of a person's cars. */
export interface CarToRemove {
  _id: string;
  name: string;
  /** The seller's name as the car shows it. */
  seller: string;
}

/**
 * Asks an admin why a car goes before taking it off the site: the reason is required (the shared
 * schema checks it, and the server again) and is mailed to the seller.
 */
export function RemoveCarDialog({
  car,
  queryClient,
  onClose,
  onRemoved,
}: {
  car: CarToRemove | null;
  /** The page's, to refresh what shows the car (see useRemoveCar). */
  queryClient: QueryClient;
  onClose: () => void;
  /** After the car is gone and the dialog closed, e.g. to move focus. */
  onRemoved?: () => void;
}) {
  const remove = useRemoveCar(queryClient);
  const reason = useReasonField('reason');

  function close() {
    remove.reset();
    reason.reset();
    onClose();
  }

  function handleConfirm() {
    if (!car) return;
    const input = reason.check(RemoveCarFormSchema.safeParse({ reason: reason.value }));
    if (!input) return;
    remove.mutate(
      { id: car._id, ...input },
      {
        onSuccess: () => {
          toast.success(`${car.name} removed. ${car.seller} was told why by email.`);
          close();
          if (onRemoved) requestAnimationFrame(onRemoved);
        },
        onError: reason.showServerError,
      },
    );
  }

  return (
    <ConfirmDialog
      open={!!car}
      onClose={close}
      onConfirm={handleConfirm}
      title={car ? `Remove ${car.name}?` : ''}
      description={
        car && (
          <ul className="list-disc space-y-1 pl-5">
            <li>The car leaves the site at once: nobody can find, save or book it any more.</li>
            <li>Open bookings of it are closed and their buyers told; nothing is charged.</li>
            <li>{car.seller} is mailed the reason you give. This cannot be undone.</li>
          </ul>
        )
      }
      confirmLabel="Remove car"
      busyLabel="Removing…"
      busy={remove.isPending}
      danger
      error={reason.dialogError(remove)}
    >
      <ReasonField
        reason={reason}
        label="Reason, for the seller"
        hint="Say what is wrong, so that the seller understands and can do better."
        maxLength={1000}
      />
    </ConfirmDialog>
  );
}

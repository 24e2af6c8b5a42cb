import type { MyListing } from '@carmarket/shared';

import { ConfirmDialog } from '../../../components/ui/dialog';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useWithdrawListing } from '../api/manage-listing';

/** The car to withdraw; `openBookingsCount` null while its bookings are not known. */
export type WithdrawableCar = Pick<MyListing, '_id' | 'name'> & {
  openBookingsCount: number | null;
};

function bookingsSentence(open: number | null): string {
  if (open === null) {
    return 'Any open bookings of it will be closed and the buyers told by email; nothing is charged.';
  }
  if (open === 0) return 'Nobody has an open booking of it.';
  return open === 1
    ? 'Its open booking will be closed and the buyer told by email; nothing is charged.'
    : `Its ${open} open bookings will be closed and the buyers told by email; nothing is charged.`;
}

/** Asks before taking a car off sale, saying what happens to its bookings. */
export function WithdrawDialog({
  car,
  onClose,
}: {
  car: WithdrawableCar | null;
  onClose: () => void;
}) {
  const withdraw = useWithdrawListing();

  function handleConfirm() {
    if (!car) return;
    withdraw.mutate(car._id, {
      onSuccess: () => {
        toast.success('Car withdrawn');
        onClose();
      },
    });
  }

  return (
    <ConfirmDialog
      open={!!car}
      onClose={() => {
        withdraw.reset();
        onClose();
      }}
      onConfirm={handleConfirm}
      title={car ? `Withdraw ${car.name}?` : ''}
      description={
        car && (
          <>
            <p>
              The car leaves its category page and the Advertised section, and buyers can no longer
              book it. You can put it back on sale whenever you like, from My cars or its page.
            </p>
            <p className="mt-2 font-medium text-base-content">
              {bookingsSentence(car.openBookingsCount)}
            </p>
          </>
        )
      }
      confirmLabel="Withdraw car"
      busyLabel="Withdrawing…"
      busy={withdraw.isPending}
      danger
      error={withdraw.isError ? errorMessage(withdraw.error) : null}
    />
  );
}

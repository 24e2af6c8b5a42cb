import type { MyListing } from '@carmarket/shared';
import { useId } from 'react';

import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useRelistListing, useSetAdvertised } from '../api/manage-listing';

/** Why a car cannot be changed at all, or null when it can be edited. */
export function lockedReason(car: Pick<MyListing, 'status'> & { sold?: boolean }): string | null {
  if (car.status === 'sold' || car.sold) return 'Sold cars cannot be changed.';
  if (car.status === 'reserved') {
    return 'A buyer is paying for this car right now, so it cannot be changed until the payment ends.';
  }
  return null;
}

/** Why an available-only action (withdraw, advertise) is not possible, or null. */
function notOnSaleReason(car: MyListing): string | null {
  const locked = lockedReason(car);
  if (locked) return locked;
  if (car.status === 'withdrawn') {
    return 'A withdrawn car cannot be advertised: put it back on sale first. You can still edit it.';
  }
  return null;
}

/**
 * A button that cannot act stays focusable, so that keyboard and screen-reader users also find out
 * why (`reasonId` points at the sentence that says it).
 */
function ActionButton({
  label,
  accessibleLabel,
  reasonId,
  disabledBecause,
  busy = false,
  onClick,
  className = 'button-outline',
}: {
  label: string;
  accessibleLabel: string;
  reasonId: string;
  disabledBecause: string | null;
  busy?: boolean;
  onClick: () => void;
  className?: string;
}) {
  const unavailable = !!disabledBecause || busy;
  return (
    <button
      type="button"
      className={`button button-sm ${className}`}
      aria-label={accessibleLabel}
      aria-disabled={unavailable || undefined}
      aria-busy={busy || undefined}
      aria-describedby={disabledBecause ? reasonId : undefined}
      title={disabledBecause ?? undefined}
      onClick={() => {
        if (!unavailable) onClick();
      }}
    >
      {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
      {label}
    </button>
  );
}

export function CarActions({
  car,
  onEdit,
  onWithdraw,
}: {
  car: MyListing;
  onEdit: (car: MyListing) => void;
  onWithdraw: (car: MyListing) => void;
}) {
  const reasonId = useId();
  const advertise = useSetAdvertised();
  const relist = useRelistListing();
  const locked = lockedReason(car);
  const notOnSale = notOnSaleReason(car);
  const withdrawn = car.status === 'withdrawn';

  function handleAdvertise() {
    const advertised = !car.advertised;
    advertise.mutate(
      { id: car._id, advertised },
      {
        onSuccess: () => toast.success(advertised ? 'Advertised' : 'No longer advertised'),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  }

  function handleRelist() {
    relist.mutate(car._id, {
      onSuccess: () => toast.success(`${car.name} is on sale again`),
      onError: (error) => toast.error(errorMessage(error)),
    });
  }

  return (
    <div>
      <div className="grid w-full max-w-56 min-w-44 grid-cols-2 gap-2">
        {/* A withdrawn car's way back comes first, across the whole width: its label is long. */}
        {withdrawn && (
          <ActionButton
            label={relist.isPending ? 'Putting back on sale…' : 'Put back on sale'}
            accessibleLabel={`Put ${car.name} back on sale`}
            reasonId={reasonId}
            disabledBecause={null}
            busy={relist.isPending}
            className="button-primary col-span-2"
            onClick={handleRelist}
          />
        )}
        <ActionButton
          label="Edit"
          accessibleLabel={`Edit ${car.name}`}
          reasonId={reasonId}
          disabledBecause={locked}
          className={withdrawn ? 'button-outline col-span-2' : 'button-outline'}
          onClick={() => onEdit(car)}
        />
        {!withdrawn && (
          <ActionButton
            label="Withdraw"
            accessibleLabel={`Withdraw ${car.name}`}
            reasonId={reasonId}
            disabledBecause={notOnSale}
            className="button-outline border-error text-error"
            onClick={() => onWithdraw(car)}
          />
        )}
        <ActionButton
          label={car.advertised ? 'Stop advertising' : 'Advertise'}
          accessibleLabel={`${car.advertised ? 'Stop advertising' : 'Advertise'} ${car.name}`}
          reasonId={reasonId}
          disabledBecause={car.advertised ? locked : notOnSale}
          busy={advertise.isPending}
          className="button-outline col-span-2"
          onClick={handleAdvertise}
        />
      </div>
      {notOnSale && (
        <p id={reasonId} className="mt-2 max-w-56 text-xs leading-5 text-muted">
          {notOnSale}
        </p>
      )}
    </div>
  );
}

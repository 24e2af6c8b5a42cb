import type { ListingDetail } from '@carmarket/shared';
import type { QueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';

import { RemoveCarDialog } from './remove-car-dialog';

/**
 * The car page's Remove car, for admins: any car not sold or removed already. Once it is gone, a
 * line says so in its place and takes focus (the button that had it is gone).
 */
export function RemoveCarButton({
  car,
  queryClient,
  className = '',
}: {
  car: ListingDetail;
  /** The page's (see useRemoveCar). */
  queryClient: QueryClient;
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  const [removed, setRemoved] = useState(false);
  const doneRef = useRef<HTMLParagraphElement>(null);

  if (removed) {
    return (
      <p ref={doneRef} tabIndex={-1} className={`text-sm text-muted ${className}`}>
        You removed this car; {car.seller} was told why by email.
      </p>
    );
  }
  if (car.status === 'sold' || car.status === 'removed') return null;
  return (
    <div className={className}>
      <button
        type="button"
        className="button button-outline button-sm text-error"
        onClick={() => setAsking(true)}
      >
        Remove car
      </button>
      <RemoveCarDialog
        car={asking ? car : null}
        queryClient={queryClient}
        onClose={() => setAsking(false)}
        onRemoved={() => {
          setRemoved(true);
          requestAnimationFrame(() => doneRef.current?.focus());
        }}
      />
    </div>
  );
}

export default RemoveCarButton;

import type { ListingDetail } from '@carmarket/shared';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';

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
  // Held for a second: whenever focus falls back to the page meanwhile (the closing dialog hands
  // it to its button, which is gone; the page renders again as the car is reloaded), the line
  // takes it again, unless the person has moved it somewhere else.
  useEffect(() => {
    const done = doneRef.current;
    if (!removed || !done) return;
    const until = performance.now() + 1000;
    let frame = 0;
    const hold = () => {
      const active = document.activeElement;
      if (active === null || active === document.body) done.focus();
      else if (active !== done) return;
      if (performance.now() < until) frame = requestAnimationFrame(hold);
    };
    hold();
    return () => cancelAnimationFrame(frame);
  }, [removed]);

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
        onRemoved={() => setRemoved(true)}
      />
    </div>
  );
}

export default RemoveCarButton;

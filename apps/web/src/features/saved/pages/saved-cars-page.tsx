import type { SavedCar } from '@carmarket/shared';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';

import { LoadError } from '../../../components/ui/load-error';
import { toast } from '../../../lib/toast';
import { useSavedCars } from '../api/get-saved-cars';
import { useSetCarSaved } from '../api/set-car-saved';
import { HeartIcon } from '../components/heart-icon';
import { SavedCarItem, SavedCarsSkeleton } from '../components/saved-car-item';
import { UnconfirmedMailNotice } from '../components/unconfirmed-mail-notice';

function NoSavedCars() {
  return (
    <div className="rounded-box border border-dashed border-base-300 bg-base-200 p-8 text-center">
      <HeartIcon filled={false} className="mx-auto size-8 text-primary" />
      <p className="mt-3 text-lg font-semibold">You have not saved a car yet</p>
      <p className="mx-auto mt-1 max-w-md text-muted">
        Press the heart on a car to keep it here. We email you when a saved car’s price drops or it
        is sold.
      </p>
      <Link to="/cars" className="button button-primary mt-5">
        Find a car
      </Link>
    </div>
  );
}

/** `/dashboard/saved`, Buyer: the cars saved with the heart, as they are now, with Remove. */
export function SavedCarsPage() {
  const { data, error, isPending, isError, refetch, isFetching } = useSavedCars();
  // Here rather than in each row: a removed row goes at once, and its Undo must still work.
  const setSaved = useSetCarSaved();
  const list = useRef<HTMLUListElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => toast.preload(), []);

  function handleRemove(saved: SavedCar) {
    // Focus moves to the next car's Remove (or the previous one's, or the heading) before this
    // one goes, so keyboard users stay in the list.
    const row = list.current?.querySelector(`[data-id="${saved.listingId}"]`);
    const neighbour = row?.nextElementSibling ?? row?.previousElementSibling;
    (neighbour?.querySelector<HTMLElement>('[data-remove]') ?? heading.current)?.focus();
    setSaved.mutate({ car: saved.car, saved: false });
  }

  let body;
  if (isPending) {
    body = (
      <>
        <p role="status" className="sr-only">
          Loading your saved cars…
        </p>
        <SavedCarsSkeleton />
      </>
    );
  } else if (isError) {
    body = (
      <LoadError
        what="your saved cars"
        error={error}
        retrying={isFetching}
        onRetry={() => void refetch()}
      />
    );
  } else if (data.length === 0) {
    body = <NoSavedCars />;
  } else {
    body = (
      <ul ref={list} className="grid gap-4" aria-label="Your saved cars, the latest saved first">
        {data.map((saved) => (
          <SavedCarItem key={saved.listingId} saved={saved} onRemove={handleRemove} />
        ))}
      </ul>
    );
  }

  return (
    <div className="max-w-4xl">
      <p className="section-eyebrow">Keep track</p>
      <h1
        ref={heading}
        tabIndex={-1}
        className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl"
      >
        Saved cars
      </h1>
      <p className="mt-3 text-lg text-muted">
        The cars you saved, at today’s price. We email you when one gets cheaper or is sold.
      </p>
      <UnconfirmedMailNotice what="emails when a saved car gets cheaper or is sold" />
      <div className="mt-8">{body}</div>
    </div>
  );
}

import type { SavedCar } from '@carmarket/shared';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';

import { EmptyState, PageState } from '../../../components/ui/page-state';
import { toast } from '../../../lib/toast';
import { useSavedCars } from '../api/get-saved-cars';
import { useSetCarSaved } from '../api/set-car-saved';
import { HeartIcon } from '../components/heart-icon';
import { SavedCarItem, SavedCarsSkeleton } from '../components/saved-car-item';
import { UnconfirmedMailNotice } from '../components/unconfirmed-mail-notice';

function NoSavedCars() {
  return (
    <EmptyState
      icon={<HeartIcon filled={false} className="mx-auto size-8 text-primary" />}
      title="You have not saved a car yet"
      description="Press the heart on a car to keep it here. We email you when a saved car’s price drops, it is sold or it is back on sale."
      action={
        <Link to="/cars" className="button button-primary">
          Find a car
        </Link>
      }
    />
  );
}

/** `/dashboard/saved`, Buyer: the cars saved with the heart, as they are now, with Remove. */
export function SavedCarsPage() {
  const savedCars = useSavedCars();
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

  const body = (
    <PageState
      query={savedCars}
      loading="Loading your saved cars…"
      skeleton={<SavedCarsSkeleton />}
      what="your saved cars"
      empty={<NoSavedCars />}
    >
      {(data) => (
        <ul ref={list} className="grid gap-4" aria-label="Your saved cars, the latest saved first">
          {data.map((saved) => (
            <SavedCarItem key={saved.listingId} saved={saved} onRemove={handleRemove} />
          ))}
        </ul>
      )}
    </PageState>
  );

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
        The cars you saved, at today’s price. We email you when one gets cheaper, is sold or is back
        on sale.
      </p>
      <UnconfirmedMailNotice what="emails when a saved car gets cheaper, is sold or is back on sale" />
      <div className="mt-8">{body}</div>
    </div>
  );
}

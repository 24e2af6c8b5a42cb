import type { ListingDetail } from '@carmarket/shared';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';

import { LoadError } from '../../../components/ui/load-error';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useBookedItems } from '../api/booked-items';
import { useCarStats } from '../api/car-stats';
import { useRelistListing } from '../api/manage-listing';
import { lockedReason } from './car-actions';
import { ListingStatusBadge } from './car-labels';
import { CarViewsChart } from './car-views-chart';
import { WithdrawDialog } from './withdraw-dialog';

// The form (react-hook-form, its schema, the photo uploads) loads when Edit is first pointed at,
// focused or pressed, not with the page.
const loadEditDialog = () => import('./edit-listing-dialog');
const EditListingDialog = lazy(() =>
  loadEditDialog().then((module) => ({ default: module.EditListingDialog })),
);

/** My cars (`/dashboard/my-products`, the spec's page name). */
const MY_CARS_PATH = '/dashboard/my-products';

/** Why the car cannot be edited or withdrawn from here, or null. */
function blockedReason(car: ListingDetail): string | null {
  if (car.status === 'removed') return 'An administrator removed this car; it cannot be changed.';
  return lockedReason(car);
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-box bg-base-200 px-3 py-2">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="text-xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

/** The car's figures over the last 30 days, with its views a day. */
function CarStatsBlock({ carId }: { carId: string }) {
  const stats = useCarStats(carId);
  const headingId = useId();
  let body;
  if (stats.isPending) {
    body = (
      <p role="status" className="mt-3 text-sm text-muted">
        Loading its figures…
      </p>
    );
  } else if (stats.isError) {
    body = (
      <div className="mt-3">
        <LoadError
          what="its figures"
          error={stats.error}
          retrying={stats.isFetching}
          onRetry={() => void stats.refetch()}
        />
      </div>
    );
  } else {
    const { views, saves, conversations, bookings, viewsByDay } = stats.data;
    body = (
      <>
        <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
          <Figure label="Views" value={views} />
          <Figure label="Saves" value={saves} />
          <Figure label="Questions" value={conversations} />
          <Figure label="Bookings" value={bookings} />
        </dl>
        {views === 0 ? (
          <p className="mt-3 text-sm text-muted">No views in the last 30 days.</p>
        ) : (
          <CarViewsChart days={viewsByDay} />
        )}
      </>
    );
  }
  return (
    <section aria-labelledby={headingId} className="mt-5 border-t border-base-300 pt-4">
      <h3 id={headingId} className="font-semibold">
        The last 30 days
      </h3>
      {body}
    </section>
  );
}

/**
 * The car page for its own seller, in place of Book now, Save and Ask the seller: its status,
 * Edit, Withdraw or Put back on sale, its figures and the way back to My cars.
 */
export function YourCarPanel({ car, className = '' }: { car: ListingDetail; className?: string }) {
  const headingId = useId();
  const reasonId = useId();
  const [editing, setEditing] = useState(false);
  // Mounted from the first Edit on: closing a dialog that stays in the page gives focus back.
  const [editorLoaded, setEditorLoaded] = useState(false);
  const [withdrawing, setWithdrawing] = useState(false);
  const relist = useRelistListing();
  // Every booking of the seller's cars: asked for only once the Withdraw dialog is open.
  const bookedItems = useBookedItems({ enabled: withdrawing });
  const actionsRef = useRef<HTMLDivElement>(null);
  // Withdraw and Put back on sale each replace the other: focus, dropped with the button that
  // had it, goes to the one that took its place.
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current || withdrawing) return;
    refocus.current = false;
    const active = document.activeElement;
    if (active === null || active === document.body) {
      actionsRef.current?.querySelector<HTMLElement>('[data-swaps]')?.focus();
    }
  }, [car.status, withdrawing]);

  const blocked = blockedReason(car);
  const withdrawn = car.status === 'withdrawn';
  const openBookingsCount = bookedItems.data
    ? bookedItems.data.filter((b) => b.listingId === car._id && b.status === 'pending').length
    : null;

  function handleRelist() {
    if (relist.isPending) return;
    refocus.current = true;
    relist.mutate(car._id, {
      onSuccess: () => toast.success(`${car.name} is on sale again`),
      onError: (error) => toast.error(errorMessage(error)),
    });
  }

  return (
    <section
      aria-labelledby={headingId}
      className={`rounded-box border border-base-300 bg-base-100 p-5 ${className}`}
      data-testid="your-car-panel"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-bold">
          Your car
        </h2>
        <p className="text-sm">
          <span className="sr-only">Status: </span>
          <ListingStatusBadge status={car.status} />
        </p>
      </div>
      <div ref={actionsRef} className="mt-4 flex flex-wrap gap-2">
        {withdrawn && (
          <button
            type="button"
            className="button button-primary button-sm"
            data-swaps
            aria-busy={relist.isPending || undefined}
            onClick={handleRelist}
          >
            {relist.isPending && (
              <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            )}
            {relist.isPending ? 'Putting back on sale…' : 'Put back on sale'}
          </button>
        )}
        <button
          type="button"
          className="button button-outline button-sm"
          aria-disabled={blocked ? true : undefined}
          aria-describedby={blocked ? reasonId : undefined}
          aria-haspopup={blocked ? undefined : 'dialog'}
          onPointerEnter={blocked ? undefined : () => void loadEditDialog()}
          onFocus={blocked ? undefined : () => void loadEditDialog()}
          onClick={() => {
            if (blocked) return;
            setEditorLoaded(true);
            setEditing(true);
          }}
        >
          Edit
        </button>
        {!withdrawn && (
          <button
            type="button"
            className="button button-outline button-sm border-error text-error"
            data-swaps
            aria-disabled={blocked ? true : undefined}
            aria-describedby={blocked ? reasonId : undefined}
            aria-haspopup={blocked ? undefined : 'dialog'}
            onClick={() => {
              if (!blocked) setWithdrawing(true);
            }}
          >
            Withdraw
          </button>
        )}
        <Link to={MY_CARS_PATH} className="text-link self-center px-1 text-sm font-semibold">
          My cars
        </Link>
      </div>
      {blocked && (
        <p id={reasonId} className="mt-2 text-sm leading-5 text-muted">
          {blocked}
        </p>
      )}
      {/* The figures are hidden from its seller once an administrator removed the car. */}
      {car.status !== 'removed' && <CarStatsBlock carId={car._id} />}
      {editorLoaded && (
        <Suspense
          fallback={
            <p role="status" className="mt-2 text-sm text-muted">
              Loading the form…
            </p>
          }
        >
          <EditListingDialog car={editing ? car : null} onClose={() => setEditing(false)} />
        </Suspense>
      )}
      <WithdrawDialog
        car={withdrawing ? { _id: car._id, name: car.name, openBookingsCount } : null}
        onClose={() => {
          refocus.current = true;
          setWithdrawing(false);
        }}
      />
    </section>
  );
}

export default YourCarPanel;

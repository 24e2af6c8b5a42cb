import { formatMoney, type MyListing, type MyListingStatus } from '@carmarket/shared';
import { useCallback } from 'react';
import { Link } from 'react-router';

import { EmptyState, PageState } from '../../../components/ui/page-state';
import { LoadMore } from '../../../components/ui/load-more';
import { useQueryParams } from '../../../lib/use-query-params';
import { useMyListingCounts } from '../api/my-listing-counts';
import { useMyListings, type MyCarsView } from '../api/my-listings';
import { CarActions } from './car-actions';
import { ListingStatusBadge, SaleLabel } from './car-labels';
import { MyCarsFilters, myCarsViewOf } from './my-cars-filters';
import { plural } from './plural';

interface Handlers {
  onEdit: (car: MyListing) => void;
  onWithdraw: (car: MyListing) => void;
}

function bookingsText(car: MyListing): string {
  const total = `${car.bookingsCount} ${car.bookingsCount === 1 ? 'booking' : 'bookings'}`;
  return car.openBookingsCount > 0 ? `${total} (${car.openBookingsCount} open)` : total;
}

/** "Saved by 3 buyers": how many, never who; nothing while nobody has saved it. */
function SavedBy({ car, className = '' }: { car: MyListing; className?: string }) {
  if (car.savedCount === 0) return null;
  return (
    <p className={`text-xs font-semibold text-secondary ${className}`}>
      Saved by {car.savedCount} {car.savedCount === 1 ? 'buyer' : 'buyers'}
    </p>
  );
}

/** What the car drew over the stats' 30 days (decision 027): "30 days: 12 views · 2 saves · 1 question". */
function Drew({ car, className = '' }: { car: MyListing; className?: string }) {
  return (
    <p className={`text-xs text-muted ${className}`} data-testid="my-car-drew">
      30 days: {plural(car.views, 'view')} · {plural(car.saves, 'save')} ·{' '}
      {plural(car.conversations, 'question')}
    </p>
  );
}

/** Narrower cells than daisyUI's, so that the table fits beside the dashboard's menu. */
export const compactTable = 'table [&_:is(th,td)]:px-3 [&_thead]:text-muted';

function CarPhoto({ car, size }: { car: MyListing; size: 'sm' | 'lg' }) {
  const image = car.images[0];
  const className =
    size === 'sm' ? 'h-12 w-16 shrink-0 rounded-lg' : 'aspect-[4/3] w-28 shrink-0 rounded-lg';
  if (!image) return <div className={`${className} bg-base-200`} aria-hidden="true" />;
  return (
    <img
      src={image.thumbUrl}
      alt={`${car.name}, cover photo`}
      width={image.width}
      height={image.height}
      loading="lazy"
      className={`${className} bg-base-200 object-cover`}
    />
  );
}

function Prices({ car }: { car: MyListing }) {
  return (
    <>
      <span className="font-semibold whitespace-nowrap">
        {formatMoney(car.reprice, car.currency)}
      </span>
      <span className="block text-xs whitespace-nowrap text-muted">
        New: {formatMoney(car.orprice, car.currency)}
      </span>
    </>
  );
}

function Badges({ car }: { car: MyListing }) {
  return (
    <span className="flex flex-wrap items-start gap-1 xl:flex-col">
      <ListingStatusBadge status={car.status} />
      {car.advertised && car.status === 'available' && (
        <span className="badge badge-sm badge-primary badge-soft">Advertised</span>
      )}
    </span>
  );
}

/** Wide screens: one row per car. */
function CarsTable({ cars, onEdit, onWithdraw }: { cars: MyListing[] } & Handlers) {
  return (
    // contain: its width never widens the page; a table too wide scrolls inside it.
    <div className="hidden overflow-x-auto rounded-box border border-base-300 [contain:inline-size] xl:block">
      <table className={compactTable}>
        <caption className="sr-only">Your cars</caption>
        <thead>
          <tr>
            <th scope="col">Car</th>
            <th scope="col">Price</th>
            <th scope="col">Status</th>
            <th scope="col">Bookings</th>
            <th scope="col">Sale</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {cars.map((car) => (
            <tr key={car._id} data-testid="my-car-row">
              <th scope="row" className="font-normal">
                <div className="flex items-center gap-3">
                  <CarPhoto car={car} size="sm" />
                  <div className="min-w-0">
                    <p className="font-semibold">{car.name}</p>
                    <p className="text-xs text-muted">
                      {car.categoryName} · {car.year}
                    </p>
                    <p className="text-xs text-muted">{car.location}</p>
                    <Drew car={car} />
                    <SavedBy car={car} />
                  </div>
                </div>
              </th>
              <td>
                <Prices car={car} />
              </td>
              <td>
                <Badges car={car} />
              </td>
              <td className="whitespace-nowrap">
                {car.bookingsCount}
                {car.openBookingsCount > 0 && (
                  <span className="block text-xs text-muted">{car.openBookingsCount} open</span>
                )}
              </td>
              <td>
                <SaleLabel sold={car.sold} />
              </td>
              <td>
                <CarActions car={car} onEdit={onEdit} onWithdraw={onWithdraw} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: one card per car. */
function CarCards({ cars, onEdit, onWithdraw }: { cars: MyListing[] } & Handlers) {
  return (
    <ul className="grid gap-4 md:grid-cols-2 xl:hidden">
      {cars.map((car) => (
        <li
          key={car._id}
          className="rounded-box border border-base-300 bg-base-100 p-4"
          data-testid="my-car-card"
        >
          <div className="flex gap-3">
            <CarPhoto car={car} size="lg" />
            <div className="min-w-0 flex-1">
              <h2 className="font-semibold">{car.name}</h2>
              <p className="text-xs text-muted">
                {car.categoryName} · {car.year}
              </p>
              <p className="mt-1">
                <Prices car={car} />
              </p>
              <Drew car={car} className="mt-1" />
              <SavedBy car={car} className="mt-1" />
            </div>
          </div>
          <dl className="mt-3 grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted">Status</dt>
            <dd>
              <Badges car={car} />
            </dd>
            <dt className="text-muted">Bookings</dt>
            <dd>{bookingsText(car)}</dd>
            <dt className="text-muted">Sale</dt>
            <dd>
              <SaleLabel sold={car.sold} />
            </dd>
          </dl>
          <div className="mt-3 border-t border-base-300 pt-3">
            <CarActions car={car} onEdit={onEdit} onWithdraw={onWithdraw} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The cars of a tab, in a sentence ("No cars on sale", "among sold cars"). */
const CARS_IN: Record<MyListingStatus, string> = {
  available: 'cars on sale',
  reserved: 'reserved cars',
  sold: 'sold cars',
  withdrawn: 'withdrawn cars',
};

/** What shows when no car matches: why, and the way back to every car. */
function NoMatch({ view, onChange }: { view: MyCarsView; onChange: ViewChange }) {
  if (view.q) {
    return (
      <EmptyState
        title={`No cars match “${view.q}”${view.status ? ` among ${CARS_IN[view.status]}` : ''}`}
        description="Search by a car’s name, make, model or VIN."
        action={
          <button
            type="button"
            className="button button-outline button-sm"
            onClick={() => onChange({ q: '' })}
          >
            Show every car
          </button>
        }
      />
    );
  }
  return (
    <EmptyState
      title={`No ${view.status ? CARS_IN[view.status] : 'cars'}`}
      action={
        <button
          type="button"
          className="button button-outline button-sm"
          onClick={() => onChange({ status: null })}
        >
          Show all cars
        </button>
      }
    />
  );
}

type ViewChange = (change: Partial<MyCarsView>, options?: { replace?: boolean }) => void;

/**
 * The seller's cars a page at a time, with a tab for each state, a search box and an order; the
 * address keeps them (`?status=sold&q=corolla&sort=price_asc`), so a reload or Back shows the
 * same cars.
 */
export function MyCars(handlers: Handlers) {
  const [params, setParams] = useQueryParams();
  const view = myCarsViewOf(params);
  const counts = useMyListingCounts(view.q);
  const listings = useMyListings(view);
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isPlaceholderData } = listings;
  // A seller with no car at all has nothing to search or sort: the page says how to add one.
  const noCarsAtAll = counts.data?.all === 0 && !counts.isPlaceholderData && !view.q;

  const handleChange = useCallback<ViewChange>(
    (change, options) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        const set = (name: string, value: string | null | undefined, fallback: string) => {
          if (value === undefined) return;
          if (value === null || value === fallback) next.delete(name);
          else next.set(name, value);
        };
        set('status', change.status, '');
        set('q', change.q, '');
        set('sort', change.sort, 'newest');
        return next;
      }, options),
    [setParams],
  );

  return (
    <div className="grid gap-6">
      {!noCarsAtAll && <MyCarsFilters view={view} counts={counts.data} onChange={handleChange} />}
      <PageState
        query={listings}
        loading="Loading your cars…"
        skeleton={
          <div className="grid gap-3" aria-hidden="true">
            {[0, 1, 2].map((index) => (
              <div key={index} className="h-20 animate-pulse rounded-box bg-base-200" />
            ))}
          </div>
        }
        what="your cars"
        isEmpty={(data) => data.pages.every((page) => page.cars.length === 0)}
        empty={
          (view.q || view.status) && !noCarsAtAll ? (
            <NoMatch view={view} onChange={handleChange} />
          ) : (
            <EmptyState
              title="You have no cars on CarMarket yet"
              description="Add your first car; it goes on sale at once."
              action={
                <Link to="/dashboard/add-product" className="button button-primary">
                  Add a car
                </Link>
              }
            />
          )
        }
      >
        {(data) => {
          // Sorted by views, a car can move between pages as its views are counted: it shows once.
          const shown = new Set<string>();
          const cars = data.pages
            .flatMap((page) => page.cars)
            .filter((car) => {
              if (shown.has(car._id)) return false;
              shown.add(car._id);
              return true;
            });
          return (
            <div
              className={isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
              aria-busy={isPlaceholderData}
            >
              <CarsTable cars={cars} {...handlers} />
              <CarCards cars={cars} {...handlers} />
              <LoadMore
                shown={cars.length}
                total={new Intl.NumberFormat('en-US').format(data.pages[0]!.total)}
                hasMore={hasNextPage && !isPlaceholderData}
                loading={isFetchingNextPage}
                onMore={() => void fetchNextPage()}
              />
            </div>
          );
        }}
      </PageState>
    </div>
  );
}

import { formatMoney, type ListingStatus, type SavedCar } from '@carmarket/shared';
import { Link } from 'react-router';

import { DealBadge } from '../../price-guide';
import { carTitle } from '../car-title';

const STATUS_BADGES: Partial<Record<ListingStatus, { label: string; className: string }>> = {
  reserved: { label: 'Reserved', className: 'badge-warning' },
  sold: { label: 'Sold', className: 'badge-neutral' },
  withdrawn: { label: 'Withdrawn', className: 'badge-ghost' },
};

function StatusBadge({ status }: { status: ListingStatus }) {
  const badge = STATUS_BADGES[status];
  if (!badge) return null;
  return (
    <span className={`badge badge-sm whitespace-nowrap ${badge.className}`}>{badge.label}</span>
  );
}

/** The price now, the price when saved, and how much it went down since. */
function Prices({ saved }: { saved: SavedCar }) {
  const { reprice, currency } = saved.car;
  const drop = saved.priceAtSaving - reprice;
  return (
    <>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-3">
        <span className="text-xl font-extrabold tracking-tight text-primary">
          {formatMoney(reprice, currency)}
        </span>
        <span className="text-sm text-muted">
          {drop === 0
            ? 'the price when you saved it'
            : `${formatMoney(saved.priceAtSaving, currency)} when you saved it`}
        </span>
      </p>
      {drop > 0 && (
        <p className="text-sm font-semibold text-success">
          Price dropped by {formatMoney(drop, currency)}
        </p>
      )}
    </>
  );
}

/**
 * One saved car: photo, name and prices linking to its page, its status (and "Back on sale" when
 * its seller put it back lately), and Remove.
 */
export function SavedCarItem({
  saved,
  onRemove,
}: {
  saved: SavedCar;
  onRemove: (saved: SavedCar) => void;
}) {
  const { car } = saved;
  const href = `/listing/${car._id}`;
  const photo = car.images[0]?.thumbUrl ?? car.img;
  return (
    <li
      className="flex gap-4 rounded-box border border-base-300 bg-base-100 p-4 card-shadow"
      data-testid="saved-car"
      data-id={car._id}
    >
      {/* The name is the link for keyboards and screen readers; the photo is one for pointers. */}
      <Link to={href} tabIndex={-1} aria-hidden="true" className="shrink-0 self-start">
        {photo ? (
          <img
            src={photo}
            alt=""
            width={144}
            height={96}
            loading="lazy"
            decoding="async"
            className="aspect-[3/2] w-24 rounded-lg bg-base-200 object-cover sm:w-36"
          />
        ) : (
          <span className="block aspect-[3/2] w-24 rounded-lg bg-base-200 sm:w-36" />
        )}
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-center">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h2 className="text-lg leading-6 font-bold">
              <Link to={href} className="hover:text-primary hover:underline">
                {car.name}
              </Link>
            </h2>
            <StatusBadge status={car.status} />
            <DealBadge rating={car.dealRating} />
            {saved.backOnSaleAt && (
              <span className="badge badge-sm whitespace-nowrap badge-success badge-soft">
                Back on sale
              </span>
            )}
          </div>
          <p className="mt-1 text-sm text-muted">
            {car.year} · {car.location}
          </p>
          <Prices saved={saved} />
        </div>
        <button
          type="button"
          className="button button-outline button-sm self-start sm:self-center"
          data-remove
          onClick={() => onRemove(saved)}
        >
          Remove<span className="sr-only"> {carTitle(car)} from saved cars</span>
        </button>
      </div>
    </li>
  );
}

/** The size of a few saved cars, while they load. */
export function SavedCarsSkeleton() {
  return (
    <div aria-hidden="true" className="grid gap-4">
      {[0, 1, 2].map((index) => (
        <div
          key={index}
          className="flex animate-pulse items-center gap-4 rounded-box border border-base-300 p-4"
        >
          <div className="aspect-[3/2] w-24 rounded-lg bg-base-300 sm:w-36" />
          <div className="flex-1">
            <div className="h-5 w-1/2 rounded-lg bg-base-300" />
            <div className="mt-3 h-4 w-1/3 rounded-lg bg-base-300" />
            <div className="mt-3 h-6 w-28 rounded-lg bg-base-300" />
          </div>
        </div>
      ))}
    </div>
  );
}

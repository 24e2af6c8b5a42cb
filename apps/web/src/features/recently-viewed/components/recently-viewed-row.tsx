// Loaded on the home page too, which has only index.css: the row's classes come with this.
import '../../../app-pages.css';

import type { ListingCard } from '@carmarket/shared';
import { useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';

import { ListingPrice } from '../../listings';
import { useCards } from '../api/get-cards';
import { clearRecentlyViewed, forgetCars } from '../recently-viewed';

/**
 * What a car that cannot be booked says in place of its price: never a price to buy it at. A
 * removed car reaches the row only for its seller and admins, who see it as "Removed" (glossary).
 */
const ENDED: Partial<Record<ListingCard['status'], string>> = {
  sold: 'Sold',
  withdrawn: 'No longer listed',
  removed: 'Removed',
};

function Tile({ car }: { car: ListingCard }) {
  const photo = car.images[0];
  const ended = ENDED[car.status];
  return (
    <Link
      to={`/listing/${car._id}`}
      className="group flex h-full flex-col overflow-hidden rounded-box border border-base-300 bg-base-100 hover:border-primary"
      data-testid="recently-viewed-car"
    >
      {photo ? (
        <img
          src={photo.thumbUrl}
          alt=""
          width={photo.width}
          height={photo.height}
          loading="lazy"
          decoding="async"
          className={`aspect-[3/2] w-full bg-base-200 object-cover ${ended ? 'opacity-60' : ''}`}
        />
      ) : (
        <div className="aspect-[3/2] w-full bg-base-200" />
      )}
      <div className="flex flex-1 flex-col gap-1 p-3">
        <h3 className="line-clamp-2 text-sm leading-5 font-bold group-hover:text-primary">
          {car.name}
        </h3>
        <p className="text-xs text-muted">{car.year}</p>
        {ended ? (
          <p className="mt-auto text-sm font-semibold" data-testid="recently-viewed-status">
            {ended}
          </p>
        ) : (
          <div className="mt-auto [&_[data-testid=listing-price]]:text-lg">
            <ListingPrice reprice={car.reprice} orprice={car.reprice} currency={car.currency} />
            {car.reservedUntil && <p className="text-xs font-semibold">Reserved</p>}
          </div>
        )}
      </div>
    </Link>
  );
}

/**
 * The row itself: the cars as the server has them now, newest viewed first, with Clear. Cars the
 * server no longer shows (removed, or never there) leave the list as soon as it says so.
 */
export default function RecentlyViewedRow({
  userId,
  ids,
  cleared,
  onClear,
  className = '',
}: {
  userId: string;
  ids: string[];
  /** The person pressed Clear: the row says so in place of the cars. */
  cleared: boolean;
  onClear: () => void;
  className?: string | undefined;
}) {
  const titleId = useId();
  const { data, isPlaceholderData } = useCards(ids);
  const note = useRef<HTMLParagraphElement>(null);

  const answered = data && !isPlaceholderData ? data.items : null;
  useEffect(() => {
    if (!answered) return;
    const shown = new Set(answered.map((car) => car._id));
    forgetCars(
      userId,
      ids.filter((id) => !shown.has(id)),
    );
  }, [answered, ids, userId]);

  useEffect(() => {
    if (cleared) note.current?.focus();
  }, [cleared]);

  if (!cleared && !data?.items.length) return null;
  return (
    <section aria-labelledby={titleId} className={className} data-testid="recently-viewed">
      <div className="flex items-baseline justify-between gap-4">
        <h2 id={titleId} className="text-2xl font-bold tracking-tight">
          Recently viewed
        </h2>
        {!cleared && (
          <button
            type="button"
            className="text-link text-sm"
            onClick={() => {
              clearRecentlyViewed(userId);
              onClear();
            }}
          >
            Clear<span className="sr-only"> recently viewed cars</span>
          </button>
        )}
      </div>
      {cleared ? (
        <p ref={note} tabIndex={-1} role="status" className="mt-2 text-muted">
          Cleared. Cars you open will show here again.
        </p>
      ) : (
        <ul className="-mx-4 mt-4 flex snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-3 sm:overflow-visible sm:px-0 lg:grid-cols-6">
          {data?.items.map((car) => (
            <li key={car._id} className="w-40 shrink-0 snap-start sm:w-auto">
              <Tile car={car} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

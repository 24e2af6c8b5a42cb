import type { ListingCard as Listing } from '@carmarket/shared';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';

import { formatDistance, lengthUnitOf } from '../../../lib/units';
import { useLocalTime } from '../../../lib/use-hydrated';
import { DealBadge } from '../../price-guide';
import { fuelLabel, transmissionLabel } from '../car-labels';
import { ListingFacts } from './listing-facts';
import { ListingPrice } from './listing-price';
import { VerifiedBadge } from './verified-badge';

/** Width of the thumbnails the server makes; cards show those, wide screens the full photo. */
const THUMB_WIDTH = 480;

export function listingPath(id: string): string {
  return `/listing/${id}`;
}

/** "Toyota Corolla · Hybrid · Automatic": what the car is, from its structured data. */
export function specsOf(listing: Listing): string {
  const parts = [
    listing.make === 'Other'
      ? null
      : `${listing.make}${listing.model === 'Other' ? '' : ` ${listing.model}`}`,
    listing.bodyType,
    listing.fuel && fuelLabel(listing.fuel),
    listing.transmission && transmissionLabel(listing.transmission),
  ];
  return parts.filter(Boolean).join(' · ') || '\u00a0';
}

const cardClass =
  'flex h-full flex-col overflow-hidden rounded-box border border-base-300 bg-base-100 card-shadow';

function CardPhoto({ listing, priority }: { listing: Listing; priority: boolean }) {
  const photo = listing.images[0];
  const src = photo?.thumbUrl ?? listing.img;
  if (!src) {
    return (
      <div className="flex aspect-[3/2] w-full items-center justify-center bg-base-200 text-sm text-muted">
        No photo yet
      </div>
    );
  }
  const srcSet =
    photo && photo.width > THUMB_WIDTH
      ? `${photo.thumbUrl} ${THUMB_WIDTH}w, ${photo.url} ${photo.width}w`
      : undefined;
  return (
    <img
      src={src}
      srcSet={srcSet}
      sizes="(min-width: 1024px) 22rem, (min-width: 640px) 50vw, 100vw"
      width={THUMB_WIDTH}
      height={THUMB_WIDTH * (2 / 3)}
      alt={`Photo of the ${listing.name}`}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className="aspect-[3/2] w-full bg-base-200 object-cover"
    />
  );
}

/**
 * One car of a category: photo and name link to the car page; `action` (the Book button) sits
 * at the bottom, so the buttons of a row line up; `corner` (the save heart) over the photo.
 */
export function ListingCard({
  listing,
  action,
  corner,
  distanceKm = null,
  priority = false,
}: {
  listing: Listing;
  action: ReactNode;
  /** Over the photo's top right corner; after the name for keyboards and screen readers. */
  corner?: ReactNode;
  /** How far the car is from the place searched near. */
  distanceKm?: number | null;
  /** One of the first cards, in view at once: its photo loads first rather than lazily. */
  priority?: boolean;
}) {
  const titleId = useId();
  const href = listingPath(listing._id);
  const reservedUntil = useLocalTime(listing.reservedUntil);
  return (
    <article
      aria-labelledby={titleId}
      className={`relative ${cardClass}`}
      data-testid="listing-card"
    >
      {/* The name below is the link for keyboards and screen readers; this one is for pointers. */}
      <Link to={href} tabIndex={-1} aria-hidden="true" className="block">
        <CardPhoto listing={listing} priority={priority} />
      </Link>
      <div className="flex flex-1 flex-col p-5">
        <h2 id={titleId} className="line-clamp-2 text-lg sm:min-h-14 leading-7 font-bold">
          <Link to={href} className="hover:text-primary hover:underline">
            {listing.name}
          </Link>
        </h2>
        {corner && <div className="absolute top-3 right-3">{corner}</div>}
        <p className="mt-1 line-clamp-1 text-sm leading-6 text-muted">{specsOf(listing)}</p>
        {/* Apart by a gap, no "·": a separator left at a line's end when the seller's name wraps. */}
        <p className="flex min-h-6 flex-wrap items-center gap-x-3 text-sm leading-6 text-muted">
          {distanceKm !== null && (
            <span className="font-semibold text-base-content">
              {formatDistance(distanceKm, lengthUnitOf(listing.currency))}
            </span>
          )}
          <span>
            Seller: <span className="font-medium text-base-content">{listing.seller}</span>
          </span>
          {listing.sellerVerified && <VerifiedBadge />}
        </p>
        {listing.reservedUntil && (
          <p className="mt-2 inline-block self-start rounded-full bg-base-200 px-3 py-0.5 text-sm font-semibold">
            {reservedUntil ? `Reserved until ${reservedUntil}` : 'Reserved'}
          </p>
        )}
        <div className="mt-3">
          <ListingPrice
            reprice={listing.reprice}
            orprice={listing.orprice}
            currency={listing.currency}
          />
        </div>
        {/* Read after the price; drawn on the photo, so a rated card is no taller than others. */}
        {listing.dealRating && (
          <div className="absolute top-3 left-3 flex">
            <DealBadge rating={listing.dealRating} />
          </div>
        )}
        <ListingFacts listing={listing} className="mt-4" />
        <div className="mt-auto pt-5">{action}</div>
      </div>
    </article>
  );
}

/** The size of a card (with a line for the Book button's reason when `withNote`). */
export function ListingCardSkeleton({ withNote = false }: { withNote?: boolean }) {
  const bar = 'animate-pulse rounded-lg bg-base-300';
  return (
    <div className={cardClass} aria-hidden="true">
      <div className="aspect-[3/2] w-full animate-pulse bg-base-200" />
      <div className="flex flex-1 flex-col p-5">
        <div className="sm:min-h-14">
          <div className={`my-1 h-5 w-4/5 ${bar}`} />
        </div>
        <div className="mt-1 flex h-6 items-center">
          <div className={`h-4 w-44 ${bar}`} />
        </div>
        <div className="flex h-6 items-center">
          <div className={`h-4 w-36 ${bar}`} />
        </div>
        <div className="mt-3 flex h-8 items-center">
          <div className={`h-6 w-28 ${bar}`} />
        </div>
        <div className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3">
          {Array.from({ length: 4 }, (_, index) => (
            <div key={index} className="h-10 py-0.5">
              <div className={`h-3.5 w-16 ${bar}`} />
              <div className={`mt-1.5 h-4 w-24 ${bar}`} />
            </div>
          ))}
        </div>
        <div className="mt-auto pt-5">
          <div className="flex gap-3">
            <div className={`h-11 flex-1 ${bar}`} />
            <div className={`h-11 flex-1 ${bar}`} />
          </div>
          {withNote && <div className="mt-2 h-5" />}
        </div>
      </div>
    </div>
  );
}

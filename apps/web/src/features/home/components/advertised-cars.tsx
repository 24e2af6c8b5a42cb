import type { ListingCard } from '@carmarket/shared';
import { lazy, Suspense, useId } from 'react';
import type { Link as LinkComponent } from 'react-router';

import { formatMileage } from '../../../lib/units';
import { ListingPrice, VerifiedBadge } from '../../listings';
import { DealBadge } from '../../price-guide';

// The heart (buyers only) loads after the cards: imported here, its code would make the home
// page's import of this chunk name the stylesheet it depends on, bytes the home page does not have.
const LazySaveCarButton = lazy(() =>
  import('../../saved').then((module) => ({ default: module.LazySaveCarButton })),
);

/**
 * Advertised cars, newest first, each linking to its page, with the save heart for buyers. Not the search page's ListingCard,
 * whose classes would cost the home page's stylesheet ~0.45 KB it does not have; its price and
 * badge are the same components, so the two cards cannot drift apart (decision 013). index.css
 * scans this file and those two.
 */
export default function AdvertisedCars({
  cars,
  Link,
}: {
  cars: ListingCard[];
  /** React Router's Link, from the page (see advertised-section.tsx). */
  Link: typeof LinkComponent;
}) {
  const titleId = useId();
  return (
    <section
      id="advertised"
      aria-labelledby={titleId}
      className="mx-auto max-w-6xl scroll-mt-20 px-4 pt-16 sm:px-6 sm:pt-20"
    >
      <div className="max-w-2xl">
        <p className="section-eyebrow">Advertised</p>
        <h2 id={titleId} className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
          Cars on offer now
        </h2>
        <p className="mt-3 text-lg leading-8 text-muted">
          Picked out by their sellers. Open one to see all its photos and book it.
        </p>
      </div>
      <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {cars.map((car) => {
          const photo = car.images[0];
          return (
            // min-w-0: a long name (one line, cut short) must not widen the phone's single column.
            // Positions as styles, not classes: no class the home page's stylesheet lacks.
            <li key={car._id} className="min-w-0" style={{ position: 'relative' }}>
              <Link
                to={`/listing/${car._id}`}
                className="group flex h-full flex-col overflow-hidden rounded-box border border-base-300 bg-base-100 card-shadow transition-colors hover:border-primary"
                data-testid="advertised-car"
              >
                {photo ? (
                  <img
                    src={photo.thumbUrl}
                    alt={`${car.name}, ${car.year}`}
                    width={photo.width}
                    height={photo.height}
                    loading="lazy"
                    decoding="async"
                    className="h-36 w-full bg-base-200"
                    // A style, not a class: no class the home page's stylesheet lacks.
                    style={{ objectFit: 'cover' }}
                  />
                ) : (
                  <div className="h-36 bg-base-200" />
                )}
                <div className="flex flex-1 flex-col gap-2 p-5">
                  <h3 className="truncate text-xl font-bold group-hover:text-primary">
                    {car.name}
                  </h3>
                  <p className="text-sm text-muted">
                    {[
                      car.year,
                      car.condition,
                      car.mileageKm !== null && formatMileage(car.mileageKm, car.currency),
                      car.location,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                  <ListingPrice
                    reprice={car.reprice}
                    orprice={car.orprice}
                    currency={car.currency}
                  />
                  {car.dealRating && (
                    <p className="flex">
                      <DealBadge rating={car.dealRating} />
                    </p>
                  )}
                  <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
                    Seller: {car.seller}
                    {car.sellerVerified && <VerifiedBadge />}
                  </p>
                </div>
              </Link>
              {/* The heart, for signed-in buyers: over the photo, after the link for keyboards. */}
              <div style={{ position: 'absolute', top: '0.75rem', right: '0.75rem' }}>
                <Suspense fallback={null}>
                  <LazySaveCarButton car={car} />
                </Suspense>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

import type { ListingCard } from '@carmarket/shared';
import { useId } from 'react';
import type { Link as LinkComponent } from 'react-router';

// Intl directly: formatMoney from @carmarket/shared would bring zod along to the home page.
function money(cents: number, currency: string) {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    maximumFractionDigits: cents % 100 === 0 ? 0 : 2,
  }).format(cents / 100);
}

/**
 * Advertised cars, newest first, each linking to its page. Its classes are ones the home page
 * already has (index.css scans this file), so the page's stylesheet stays the same size.
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
            <li key={car._id}>
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
                    {car.year} · {car.condition} · {car.location}
                  </p>
                  <p className="flex flex-wrap items-end gap-2">
                    <span className="text-xl font-bold text-primary">
                      {money(car.reprice, car.currency)}
                    </span>
                    <span className="text-sm text-muted">
                      New: {money(car.orprice, car.currency)}
                    </span>
                  </p>
                  <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
                    Seller: {car.seller}
                    {car.sellerVerified && (
                      <span className="rounded-full bg-primary-soft px-1.5 py-0.5 font-medium text-primary">
                        Verified seller
                      </span>
                    )}
                  </p>
                </div>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

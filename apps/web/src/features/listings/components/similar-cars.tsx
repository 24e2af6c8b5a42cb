import type { ListingCard } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { Link } from 'react-router';

import { useNearView } from '../../../lib/use-near-view';
import { getSimilarCars } from '../api/get-similar-cars';
import { listingKeys } from '../api/query-keys';
import { ListingCardSkeleton } from './listing-card';

/**
 * "Similar cars" under a car (and on a sold or withdrawn car's page): asked for only once its
 * place comes within a screen of view, as the home page's Advertised section is; the cards' code
 * is a chunk of its own, loaded with the first answer that has a car in it.
 */
export function SimilarCars({ carId, className = '' }: { carId: string; className?: string }) {
  const [place, near] = useNearView();
  const similar = useQuery({
    queryKey: listingKeys.similar(carId),
    enabled: near,
    queryFn: async ({
      signal,
    }): Promise<{
      cars: ListingCard[];
      Row: ComponentType<{ cars: ListingCard[] }> | null;
    }> => {
      const { items } = await getSimilarCars(carId, signal);
      return {
        cars: items,
        Row: items.length ? (await import('./similar-cars-row')).default : null,
      };
    },
  });
  const { data, isError } = similar;
  return (
    <section ref={place} aria-labelledby="similar-title" className={className}>
      <h2
        id="similar-title"
        tabIndex={-1}
        className="scroll-mt-24 text-2xl font-bold tracking-tight"
      >
        Similar cars
      </h2>
      {data?.Row ? (
        <data.Row cars={data.cars} />
      ) : data || isError ? (
        <p className="mt-3 text-muted">
          {isError ? 'We could not load similar cars.' : 'No similar cars are on sale right now.'}{' '}
          <Link to="/cars" className="text-link">
            Find a car
          </Link>
        </p>
      ) : (
        <div className="mt-5 grid gap-6 sm:grid-cols-2 lg:grid-cols-4" role="status">
          <span className="sr-only">Loading similar cars…</span>
          {[0, 1, 2, 3].map((index) => (
            <div key={index} className={index > 0 ? 'hidden sm:block' : undefined}>
              <ListingCardSkeleton />
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

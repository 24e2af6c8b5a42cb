import type { ListingCard as Listing } from '@carmarket/shared';
import { Link } from 'react-router';

import { ListingCard, listingPath } from './listing-card';

/**
 * The similar cars' cards (a chunk of their own, loaded with the first answer that has a car): a
 * row that scrolls sideways on phones, four a line on wide screens. Each card leads to its car.
 */
export default function SimilarCarsRow({ cars }: { cars: Listing[] }) {
  return (
    <ul
      className="-mx-4 mt-5 flex snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:grid sm:grid-cols-2 sm:gap-6 sm:overflow-visible sm:px-0 lg:grid-cols-4"
      data-testid="similar-cars"
    >
      {cars.map((car) => (
        <li key={car._id} className="w-72 shrink-0 snap-start sm:w-auto">
          <ListingCard
            listing={car}
            action={
              <Link to={listingPath(car._id)} className="button button-outline w-full">
                Details<span className="sr-only"> of the {car.name}</span>
              </Link>
            }
          />
        </li>
      ))}
    </ul>
  );
}

import type { ListingCard as Listing } from '@carmarket/shared';
import { Link } from 'react-router';

import { BookButton } from '../../features/bookings/components/book-button';
import { ListingCard, listingPath } from '../../features/listings/components/listing-card';
import { SaveOrSignInButton } from '../../features/saved/components/save-or-sign-in-button';

/**
 * A car's card with Details, Book now and the save heart, as search and category pages list cars;
 * a visitor signed out (where browsing is open) is asked to sign in by Book now and the heart.
 */
export function BookableCar({
  car,
  priority = false,
}: {
  car: Listing & { distanceKm?: number | null | undefined };
  /** One of the first cards: its photo loads at once. */
  priority?: boolean;
}) {
  return (
    <ListingCard
      listing={car}
      priority={priority}
      distanceKm={car.distanceKm ?? null}
      corner={<SaveOrSignInButton car={car} />}
      action={
        <BookButton
          listing={car}
          before={
            <Link to={listingPath(car._id)} className="button button-outline flex-1">
              Details<span className="sr-only"> of the {car.name}</span>
            </Link>
          }
        />
      }
    />
  );
}

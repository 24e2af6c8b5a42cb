import { Link } from 'react-router';

import { RequireAuth } from '../../features/auth/components/require-auth';
import { useSession } from '../../features/auth/use-session';
import { BookButton } from '../../features/bookings/components/book-button';
import {
  ListingCard,
  ListingCardSkeleton,
  listingPath,
} from '../../features/listings/components/listing-card';
import { SearchPage } from '../../features/search/pages/search-page';

function CarsPage() {
  const { user } = useSession();
  return (
    <SearchPage
      skeleton={<ListingCardSkeleton withNote={user?.role !== 'Buyer'} />}
      renderCar={(car) => (
        <ListingCard
          listing={car}
          distanceKm={car.distanceKm ?? null}
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
      )}
    />
  );
}

/** `/cars`: search every car on sale (signed in, like category pages). */
export default function CarsRoute() {
  return (
    <RequireAuth>
      <CarsPage />
    </RequireAuth>
  );
}

import { RequireAuth } from '../../features/auth/components/require-auth';
import { hasRole } from '../../features/auth/roles';
import { useSession } from '../../features/auth/use-session';
import { ListingCardSkeleton } from '../../features/listings/components/listing-card';
import { SaveSearchButton } from '../../features/saved/components/save-search-button';
import { prefetchFirstPage } from '../../features/search/api/search-cars';
import { SearchPage } from '../../features/search/pages/search-page';
import { apiQueryOf } from '../../features/search/search-state';
import { BookableCar } from './bookable-car';

// Loaded to show /cars: start on its results at once.
if (typeof window !== 'undefined' && window.location.pathname.startsWith('/cars')) {
  prefetchFirstPage(apiQueryOf(new URLSearchParams(window.location.search)));
}

function CarsPage() {
  const { user } = useSession();
  return (
    <SearchPage
      skeleton={<ListingCardSkeleton withNote={!hasRole(user?.roles, 'Buyer')} />}
      renderCar={(car, index) => <BookableCar car={car} priority={index < 2} />}
      saveSearch={(search) => <SaveSearchButton {...search} />}
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

import { holdsRole } from '@carmarket/shared';

import { RequireBrowsing } from '../../features/auth/components/require-browsing';
import { useSession } from '../../features/auth/use-session';
import { RecentlyViewed } from '../../features/recently-viewed';
import { ListingCardSkeleton } from '../../features/listings/components/listing-card';
import { SaveSearchButton } from '../../features/saved/components/save-search-button';
import { SearchPage } from '../../features/search/pages/search-page';
import { BookableCar } from './bookable-car';

function CarsPage() {
  const { user } = useSession();
  return (
    <SearchPage
      skeleton={<ListingCardSkeleton withNote={!holdsRole(user?.roles, 'Buyer')} />}
      renderCar={(car, index) => <BookableCar car={car} priority={index < 2} />}
      saveSearch={(search) => <SaveSearchButton {...search} />}
      nothingFoundExtra={user && <RecentlyViewed userId={user.id} className="mt-8" />}
    />
  );
}

/** `/cars`: search every car on sale (signed in, like category pages, unless browsing is open). */
export default function CarsRoute() {
  return (
    <RequireBrowsing>
      <CarsPage />
    </RequireBrowsing>
  );
}

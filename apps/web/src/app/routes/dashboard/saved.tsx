import { SavedCarsPage } from '../../../features/saved/pages/saved-cars-page';
import { usePage } from '../../../lib/page';

/** `/dashboard/saved`, Buyer: the cars saved with the heart. */
export default function SavedCarsRoute() {
  usePage({ title: 'Saved cars' });
  return <SavedCarsPage />;
}

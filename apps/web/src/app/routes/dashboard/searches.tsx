import { SavedSearchesPage } from '../../../features/saved/pages/saved-searches-page';
import { usePage } from '../../../lib/page';

/** `/dashboard/searches`, Buyer: saved searches and their alerts. */
export default function SavedSearchesRoute() {
  usePage({ title: 'Saved searches' });
  return <SavedSearchesPage />;
}

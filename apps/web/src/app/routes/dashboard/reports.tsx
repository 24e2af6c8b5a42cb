import { ReportsPage } from '../../../features/messages/pages/reports-page';
import { usePage } from '../../../lib/page';

/** `/dashboard/reports`, admins: reported conversations. */
export default function ReportsRoute() {
  usePage({ title: 'Reports' });
  return <ReportsPage />;
}

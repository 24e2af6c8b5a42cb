import { MessagesPage } from '../../../features/messages/pages/messages-page';
import { usePage } from '../../../lib/page';

/** `/dashboard/messages` and `/dashboard/messages/:id`, buyers and sellers: their conversations. */
export default function MessagesRoute() {
  usePage({ title: 'Messages' });
  return <MessagesPage />;
}

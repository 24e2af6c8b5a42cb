import { MyOrdersPage } from '../../../features/bookings/pages/my-orders-page';
import { usePage } from '../../../lib/page';

/** `/dashboard/orders` (also `/orders`), Buyer: the buyer's bookings, each with Pay or Paid. */
export default function OrdersRoute() {
  usePage({ title: 'My Orders' });
  return <MyOrdersPage />;
}

import { useParams } from 'react-router';

import { ReceiptPage } from '../../../features/bookings/pages/receipt-page';
import { usePage } from '../../../lib/page';

/** `/dashboard/receipt/:id`, Buyer: the printable receipt of a paid booking. */
export default function ReceiptRoute() {
  usePage({ title: 'Receipt' });
  const { id = '' } = useParams();
  return <ReceiptPage key={id} bookingId={id} />;
}

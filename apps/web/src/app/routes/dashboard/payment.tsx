import { useParams } from 'react-router';

import { PaymentPage } from '../../../features/payments/pages/payment-page';
import { usePage } from '../../../lib/page';

/** `/dashboard/payment/:id`, Buyer: card payment for the booking `id`. */
export default function PaymentRoute() {
  usePage({ title: 'Payment' });
  const { id = '' } = useParams();
  // A fresh page (and payment state) for each booking.
  return <PaymentPage key={id} bookingId={id} />;
}

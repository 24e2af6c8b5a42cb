import { PayoutsPage } from '../../../features/payouts/pages/payouts-page';

/** `/dashboard/payouts`, Seller: the seller's balance, payout account and payouts. */
export default function PayoutsRoute() {
  return <PayoutsPage />;
}

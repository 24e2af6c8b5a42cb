import { DisputesPage } from '../../../features/payouts/pages/disputes-page';

/** `/dashboard/disputes`, admin: buyers' disputes, each released to the seller or refunded. */
export default function DisputesRoute() {
  return <DisputesPage />;
}

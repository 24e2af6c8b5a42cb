import { AllUsersPage } from '../../../features/admin/pages/all-users-page';

/** `/dashboard/allUser` (`?role=Seller` or `?role=Buyer`), admin: the user table. */
export default function AllUsersRoute() {
  return <AllUsersPage />;
}

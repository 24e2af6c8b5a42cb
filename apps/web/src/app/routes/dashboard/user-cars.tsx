import { useParams } from 'react-router';

import { UserCarsPage } from '../../../features/admin/pages/user-cars-page';

/** `/dashboard/users/:id/cars`, admin: a person's cars, with Remove car. */
export default function UserCarsRoute() {
  const { id = '' } = useParams();
  // A new person starts afresh (the dialog closed, its reason empty).
  return <UserCarsPage key={id} id={id} />;
}

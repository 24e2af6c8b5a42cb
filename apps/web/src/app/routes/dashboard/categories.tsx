import { CategoriesPage } from '../../../features/admin/pages/categories-page';

/** `/dashboard/categories`, admin: the categories people browse by. */
export default function CategoriesRoute() {
  return <CategoriesPage />;
}

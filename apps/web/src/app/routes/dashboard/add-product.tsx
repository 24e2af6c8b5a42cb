import { AddProductPage } from '../../../features/seller/pages/add-product-page';

/** `/dashboard/add-product` (also `/product`), Seller: the form that lists a car. */
export default function AddProductRoute() {
  return <AddProductPage />;
}

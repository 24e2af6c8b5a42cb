import { MyProductsPage } from '../../../features/seller/pages/my-products-page';

/** `/dashboard/my-products` (also `/myProduct`), Seller: the seller's cars and their bookings. */
export default function MyProductsRoute() {
  return <MyProductsPage />;
}

/** Where a buyer's bookings live: My Orders, paying for one, and the receipt of a paid one. */
export const ORDERS_PATH = '/dashboard/orders';

export function paymentPath(bookingId: string): string {
  return `/dashboard/payment/${bookingId}`;
}

export function receiptPath(bookingId: string): string {
  return `/dashboard/receipt/${bookingId}`;
}

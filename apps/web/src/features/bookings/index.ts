// What other features may use of bookings (the payment page shows the booking it pays for and
// links back to My Orders; the seller's list of bookings shows each one's state and, once paid,
// where its money is).
export { useBooking } from './api/get-booking';
export { bookingKeys } from './api/query-keys';
export { BookingStatusBadge } from './components/booking-status-badge';
export { HandoverStatus } from './components/handover-status';
export { ORDERS_PATH } from './paths';

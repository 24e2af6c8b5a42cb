// What other features may use of bookings (the payment page shows the booking it pays for).
export { useBooking } from './api/get-booking';
export { bookingKeys } from './api/query-keys';
export { BookingStatusBadge } from './components/booking-status-badge';

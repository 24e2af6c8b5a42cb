/** Roles a person can hold. Admin is never offered at sign-up. */
export const ROLES = ['Buyer', 'Seller', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const SIGNUP_ROLES = ['Seller', 'Buyer'] as const;
export type SignupRole = (typeof SIGNUP_ROLES)[number];

export const CONDITIONS = ['Excellent', 'Good', 'Fair'] as const;
export type Condition = (typeof CONDITIONS)[number];

export const CATEGORY_NAMES = ['Microbus', 'Luxury car', 'Electric car'] as const;
export type CategoryName = (typeof CATEGORY_NAMES)[number];

export const LISTING_STATUSES = ['available', 'reserved', 'sold', 'withdrawn', 'removed'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const BOOKING_STATUSES = ['pending', 'paid', 'cancelled', 'closed'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const PAYMENT_STATUSES = [
  'requires_payment',
  'succeeded',
  'failed',
  'canceled',
  'refunded',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

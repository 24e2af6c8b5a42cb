/** Roles a person can hold. Admin is never offered at sign-up. */
export const ROLES = ['Buyer', 'Seller', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const SIGNUP_ROLES = ['Seller', 'Buyer'] as const;
export type SignupRole = (typeof SIGNUP_ROLES)[number];

export const CONDITIONS = ['Excellent', 'Good', 'Fair'] as const;
export type Condition = (typeof CONDITIONS)[number];

/** The spec's three categories, seeded on every new database; admins may add others. */
export const CATEGORY_NAMES = ['Microbus', 'Luxury car', 'Electric car'] as const;
export type CategoryName = (typeof CATEGORY_NAMES)[number];

export const LISTING_STATUSES = ['available', 'reserved', 'sold', 'withdrawn', 'removed'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/**
 * How a car's price compares with its price guide's fair price, best first (decision 032 sets
 * the thresholds).
 */
export const DEAL_RATINGS = ['great', 'good', 'fair', 'high', 'overpriced'] as const;
export type DealRating = (typeof DEAL_RATINGS)[number];

/**
 * A deal rating in words: the card's badge, the car page, the search filter and a saved
 * search's summary all say the same.
 */
export const DEAL_RATING_LABELS: Record<DealRating, string> = {
  great: 'Great deal',
  good: 'Good deal',
  fair: 'Fair deal',
  high: 'High price',
  overpriced: 'Overpriced',
};

/**
 * `refunded`: a paid booking whose payment an admin refunded after the buyer's dispute (decision
 * 044); it keeps its paidAt and transactionId, and its car went back to its seller, withdrawn.
 */
export const BOOKING_STATUSES = ['pending', 'paid', 'cancelled', 'closed', 'refunded'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Why a pending booking was closed: what happened to its car. */
export const BOOKING_CLOSE_REASONS = ['sold', 'withdrawn', 'removed', 'seller-deleted'] as const;
export type BookingCloseReason = (typeof BOOKING_CLOSE_REASONS)[number];

/**
 * The reason in words, completing "Your booking was closed because …": the mail that tells the
 * buyer and the My Orders page say the same.
 */
export const CLOSED_BECAUSE: Record<BookingCloseReason, string> = {
  sold: 'another buyer bought it',
  withdrawn: 'the seller withdrew it',
  removed: 'it was removed from the site',
  'seller-deleted': 'the seller’s account was closed',
};

/**
 * Where a paid booking's money is (decision 037): `awaiting-handover` (the platform keeps it),
 * `disputed` while an admin decides, `released` to the seller (less the fee) on hand-over, or
 * `refunded` to the buyer. Released and refunded are final; a booking reaches at most one.
 */
export const SETTLEMENT_STATES = ['awaiting-handover', 'disputed', 'released', 'refunded'] as const;
export type SettlementState = (typeof SETTLEMENT_STATES)[number];

/** Who let the money go to the seller: the buyer, the days passing, or an admin's ruling. */
export const RELEASED_BY = ['buyer', 'timer', 'admin'] as const;
export type ReleasedBy = (typeof RELEASED_BY)[number];

/** A dispute is `open`, `resolving` (an admin's ruling is being carried out) or `resolved`. */
export const DISPUTE_STATUSES = ['open', 'resolving', 'resolved'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export const DISPUTE_OUTCOMES = ['release', 'refund'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

/** A payout is `sending` (asked of the provider, not yet confirmed) or `paid`. */
export const PAYOUT_STATUSES = ['sending', 'paid'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * The ledger's accounts (decision 037). Every movement writes entries summing to zero:
 * charge: cash +P, escrow -P; release: escrow +P, fees -F, seller -(P-F);
 * payout: seller +(P-F), cash -(P-F); refund: escrow +P, cash -P.
 */
export const LEDGER_ACCOUNTS = ['cash', 'escrow', 'fees', 'seller'] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];
export const LEDGER_MOVEMENTS = ['charge', 'release', 'payout', 'refund'] as const;
export type LedgerMovement = (typeof LEDGER_MOVEMENTS)[number];

export const PAYMENT_STATUSES = [
  'requires_payment',
  'succeeded',
  'failed',
  'canceled',
  'refunded',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Whether an account holding `roles` holds `role` (one account may be a Buyer and a Seller). */
export function holdsRole(roles: readonly Role[] | null | undefined, role: Role): boolean {
  return !!roles && roles.includes(role);
}

/**
 * The spec's single `role` field: the first role the account took (the one chosen at sign-up,
 * or admin). Adding a role later never changes it, so a client of the spec reads what it did.
 */
export function firstRole(roles: readonly Role[] | null | undefined): Role | null {
  return roles?.[0] ?? null;
}

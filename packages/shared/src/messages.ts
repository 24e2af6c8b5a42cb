// No zod here: web pages import these without pulling in the schema library (decision 002).
import type { BookingStatus, ListingStatus } from './enums.ts';

/** A message's length, in characters after normalising (issue 16). */
export const MESSAGE_MAX_LENGTH = 2000;
/** A report's reason. */
export const REPORT_REASON_MAX_LENGTH = 1000;
/** Messages per page of a thread (`limit` may ask for fewer or more, up to the maximum). */
export const MESSAGE_PAGE_SIZE = 30;
export const MAX_MESSAGE_PAGE_SIZE = 100;
/** Conversations per page of the list. */
export const CONVERSATION_PAGE_SIZE = 30;

export const MESSAGE_KINDS = ['text', 'booking'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** The name shown for a person whose account was deleted; their messages stay. */
export const DELETED_USER_NAME = 'Deleted user';

/**
 * Why no new message can be sent: the car left the market, the seller blocked, an account went,
 * or the buyer's own purchase of the car was settled more than SALE_CONVERSATION_DAYS ago.
 */
export const CONVERSATION_CLOSED_REASONS = [
  'sold',
  'withdrawn',
  'removed',
  'blocked',
  'account-deleted',
  'sale-settled',
] as const;
export type ConversationClosedReason = (typeof CONVERSATION_CLOSED_REASONS)[number];

/**
 * The buyer and seller of a sale keep talking while its money is held (awaiting hand-over or a
 * ruling) and for this many days after it was released or refunded: questions about papers,
 * keys or the refund come after the car changed hands (issue 51).
 */
export const SALE_CONVERSATION_DAYS = 30;

/**
 * Whether a sale's buyer and seller may still write: `settledAt` is when its money was released
 * or refunded, null while it is held.
 */
export function saleConversationOpen(settledAt: Date | string | null, now = new Date()): boolean {
  if (settledAt === null) return true;
  const ends = new Date(settledAt).getTime() + SALE_CONVERSATION_DAYS * 24 * 60 * 60 * 1000;
  return now.getTime() < ends;
}

/**
 * Whether a booking is the sale that left its car in this status (decision 050): a sold car's
 * paid booking, or the refunded booking of a car its refund withdrew (decision 044). Only then do
 * its buyer and the seller talk on; a refunded booking of a car sold again, or relisted, is not.
 */
export function isSaleOfCar(bookingStatus: BookingStatus, carStatus: ListingStatus): boolean {
  return (
    (carStatus === 'sold' && bookingStatus === 'paid') ||
    (carStatus === 'withdrawn' && bookingStatus === 'refunded')
  );
}

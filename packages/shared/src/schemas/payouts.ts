import { z } from 'zod';
import {
  DISPUTE_OUTCOMES,
  DISPUTE_STATUSES,
  PAYOUT_STATUSES,
  RELEASED_BY,
  SETTLEMENT_STATES,
} from '../enums.ts';
import { textSchema } from '../text.ts';
import { PageQuerySchema } from './search.ts';

/*
 * Hand-over, payouts and disputes (issue 35, decision 037). Amounts are in minor units of the
 * site's currency.
 */

/**
 * What happens to a paid booking's money, on the booking (`handover` in `BookingSchema`): null
 * for a booking that is not paid.
 */
export const HandoverSchema = z.object({
  state: z.enum(SETTLEMENT_STATES),
  /** When the money goes to the seller by itself unless the buyer disputes (while `awaiting-handover`). */
  releaseDueAt: z.string(),
  /** When it was released (buyer confirmed, the days passed, or an admin ruled); else null. */
  releasedAt: z.string().nullable(),
  releasedBy: z.enum(RELEASED_BY).nullable(),
  refundedAt: z.string().nullable(),
  /** The platform's fee and the seller's share (price less the fee). */
  feeCents: z.number().int(),
  sellerCents: z.number().int(),
  /** The buyer's dispute, if they opened one. */
  disputeId: z.uuid().nullable(),
});
export type Handover = z.infer<typeof HandoverSchema>;

/** `POST /api/booked/:id/dispute`: the buyer says what went wrong. */
export const OpenDisputeSchema = z.object({
  reason: textSchema('Reason', { max: 2000, min: 10, multiline: true }),
});
export type OpenDisputeInput = z.infer<typeof OpenDisputeSchema>;

/** `POST /api/disputes/:id/resolve` (admins). */
export const ResolveDisputeSchema = z.object({
  outcome: z.enum(DISPUTE_OUTCOMES, { message: 'Outcome must be release or refund' }),
  note: textSchema('Note', { max: 2000, min: 3, multiline: true }),
});
export type ResolveDisputeInput = z.infer<typeof ResolveDisputeSchema>;

/** A dispute as admins (and the booking's buyer and seller) see it. */
export const DisputeSchema = z.object({
  _id: z.uuid(),
  bookingId: z.uuid(),
  listingId: z.uuid(),
  carName: z.string(),
  buyerName: z.string(),
  buyerEmail: z.string(),
  sellerName: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  reason: z.string(),
  status: z.enum(DISPUTE_STATUSES),
  outcome: z.enum(DISPUTE_OUTCOMES).nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type Dispute = z.infer<typeof DisputeSchema>;

/** `GET /api/disputes`: open disputes first (oldest first), or those of a status. */
export const DisputesQuerySchema = PageQuerySchema.extend({
  status: z.enum(DISPUTE_STATUSES).optional(),
});
/** How many disputes each status holds, whichever status was asked for (the page's tabs). */
export const DisputeCountsSchema = z.object({
  open: z.number().int(),
  resolving: z.number().int(),
  resolved: z.number().int(),
}) satisfies z.ZodType<Record<(typeof DISPUTE_STATUSES)[number], number>>;
export type DisputeCounts = z.infer<typeof DisputeCountsSchema>;

export const DisputePageSchema = z.object({
  items: z.array(DisputeSchema),
  nextCursor: z.string().nullable(),
  counts: DisputeCountsSchema,
});
export type DisputePage = z.infer<typeof DisputePageSchema>;

/** `GET /api/my/balance` (sellers). */
export const BalanceSchema = z.object({
  /** Paid by buyers, waiting for hand-over or a dispute's ruling (the seller's share). */
  pending: z.number().int(),
  /** Released to the seller and not yet paid out (waits for a payout account, or is sending). */
  payable: z.number().int(),
  /** Paid out to the seller's payout account, in all. */
  paidOut: z.number().int(),
  currency: z.string(),
});
export type Balance = z.infer<typeof BalanceSchema>;

/** One payout: a hand-over's share sent to the seller's payout account. */
export const PayoutSchema = z.object({
  _id: z.uuid(),
  bookingId: z.uuid(),
  carName: z.string(),
  amount: z.number().int(),
  feeCents: z.number().int(),
  currency: z.string(),
  status: z.enum(PAYOUT_STATUSES),
  provider: z.enum(['sandbox', 'stripe']),
  /** The provider's transfer id (Stripe's `tr_...`). */
  transferId: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type Payout = z.infer<typeof PayoutSchema>;

/** `GET /api/my/payouts`: newest first. */
export const PayoutsQuerySchema = PageQuerySchema;
export const PayoutPageSchema = z.object({
  items: z.array(PayoutSchema),
  nextCursor: z.string().nullable(),
});
export type PayoutPage = z.infer<typeof PayoutPageSchema>;

/** `GET /api/my/payout-account`: where payouts go. */
export const PayoutAccountSchema = z.object({
  /** `none`: not added (payouts wait); `onboarding`: begun, not finished; `ready`: payouts go. */
  status: z.enum(['none', 'onboarding', 'ready']),
  provider: z.enum(['sandbox', 'stripe']),
});
export type PayoutAccount = z.infer<typeof PayoutAccountSchema>;

/** `POST /api/my/payout-account`: where to send the seller to add (or finish) their account. */
export const PayoutAccountLinkSchema = z.object({ url: z.string() });
export type PayoutAccountLink = z.infer<typeof PayoutAccountLinkSchema>;

/** `GET /api/admin/money`: the admin dashboard's money figures, in all. */
export const MoneySummarySchema = z.object({
  /** Paid by buyers, not yet released or refunded (escrow). */
  held: z.number().int(),
  /** The platform's fees on released bookings. */
  feesEarned: z.number().int(),
  /** Sent to sellers. */
  paidOut: z.number().int(),
  /** Released but not yet sent to sellers. */
  owedToSellers: z.number().int(),
  /** Given back to buyers after disputes. */
  refunded: z.number().int(),
  openDisputes: z.number().int(),
  currency: z.string(),
});
export type MoneySummary = z.infer<typeof MoneySummarySchema>;

import { z } from 'zod';

/**
 * Fewer conversations than this in the last 90 days and a seller's reply figures are null: two
 * conversations say too little to tell a buyer how a seller replies.
 */
export const REPLY_FIGURES_MIN_CONVERSATIONS = 3;
/** How far back a seller's reply figures look, in days. */
export const REPLY_FIGURES_DAYS = 90;

/** `GET /api/sellers/:id`: a seller's public profile. */
export const SellerProfileSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  /** The account's profile photo (`/media/...`), or null: the page shows initials. */
  photo: z.string().nullable(),
  /** An admin verified the seller. */
  verified: z.boolean(),
  /** When the account was made (ISO 8601). */
  memberSince: z.string(),
  carsOnSale: z.number().int(),
  carsSold: z.number().int(),
  /**
   * Of conversations buyers started with the seller in the last 90 days that the seller answered:
   * the median minutes from the buyer's first message to the seller's first reply. Null with
   * fewer than REPLY_FIGURES_MIN_CONVERSATIONS conversations, or none answered.
   */
  medianReplyMinutes: z.number().int().nullable(),
  /** Of those conversations, the share the seller answered (0..1); null with too few. */
  replyRate: z.number().min(0).max(1).nullable(),
});
export type SellerProfile = z.infer<typeof SellerProfileSchema>;

import { z } from 'zod';
import { CONDITIONS, LISTING_STATUSES } from '../enums.ts';

export const ListingImageSchema = z.object({
  url: z.string(),
  thumbUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

/** A car as category pages show it. Money is in minor units (cents) with its currency. */
export const ListingCardSchema = z.object({
  _id: z.uuid(),
  categoryId: z.uuid(),
  name: z.string(),
  /** Cover photo URL. */
  img: z.string().nullable(),
  images: z.array(ListingImageSchema),
  location: z.string(),
  reprice: z.number().int(),
  orprice: z.number().int(),
  currency: z.string(),
  year: z.number().int(),
  mileageKm: z.number().int().nullable(),
  condition: z.enum(CONDITIONS),
  status: z.enum(LISTING_STATUSES),
  /** The seller's name as shown on the listing. */
  seller: z.string(),
  sellerId: z.uuid(),
  sellerVerified: z.boolean(),
  advertised: z.boolean(),
  createdAt: z.string(),
});
export type ListingCard = z.infer<typeof ListingCardSchema>;

/** `GET /api/category/:id`: the category and its cars that can be booked now, newest first. */
export const CategoryDetailSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  icon: z.string(),
  listings: z.array(ListingCardSchema),
});
export type CategoryDetail = z.infer<typeof CategoryDetailSchema>;

/** `GET /api/listings/:id`: one car with everything the car page shows. */
export const ListingDetailSchema = ListingCardSchema.extend({
  description: z.string(),
  categoryName: z.string(),
});
export type ListingDetail = z.infer<typeof ListingDetailSchema>;

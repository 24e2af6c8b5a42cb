import { z } from 'zod';

/** One category as `GET /api/category` lists it. */
export const CategorySummarySchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  /** URL of the category's icon image. */
  icon: z.string(),
  /** How many of its cars can be booked now. */
  count: z.number().int().nonnegative(),
});
export type CategorySummary = z.infer<typeof CategorySummarySchema>;

export const CategoryListSchema = z.array(CategorySummarySchema);

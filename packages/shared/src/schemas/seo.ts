import { z } from 'zod';
import { IdSchema } from './common.ts';

/**
 * `GET /sitemap-cars.xml?from=<id>&to=<id>`: one car sitemap as last built, the cars on sale
 * from the car `from` to the car `to` in id order, both named by the sitemap index (decision
 * 045). Without `from`, the first; a `from` that starts no page (an old link) is sent to the
 * page that holds it.
 */
export const CarSitemapQuerySchema = z.object({
  from: IdSchema.optional(),
  to: IdSchema.optional(),
});
export type CarSitemapQuery = z.infer<typeof CarSitemapQuerySchema>;

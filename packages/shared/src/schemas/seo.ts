import { z } from 'zod';
import { IdSchema } from './common.ts';

/**
 * `GET /sitemap-cars.xml?from=<id>`: one sitemap of cars on sale, in id order from the car `from`
 * (the first page without it). The sitemap index names each page's `from`.
 */
export const CarSitemapQuerySchema = z.object({ from: IdSchema.optional() });
export type CarSitemapQuery = z.infer<typeof CarSitemapQuerySchema>;

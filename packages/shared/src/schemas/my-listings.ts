import { z } from 'zod';
import { textSchema } from '../text.ts';
import { PageQuerySchema } from './search.ts';

/**
 * The states a seller sees their own cars in (My cars' tabs). `reserved` is a car with a live
 * hold, as its badge says; a car whose hold lapsed but was not yet swept is `available`.
 */
export const MY_LISTING_STATUSES = ['available', 'reserved', 'sold', 'withdrawn'] as const;
export type MyListingStatus = (typeof MY_LISTING_STATUSES)[number];

/**
 * My cars' orders; the search's words where they mean the same (`newest`, `price_asc`). `views`:
 * the most viewed over the last 30 days first.
 */
export const MY_LISTING_SORTS = ['newest', 'oldest', 'price_asc', 'price_desc', 'views'] as const;
export type MyListingSort = (typeof MY_LISTING_SORTS)[number];

/** The words a seller's search may match (name, make, model, VIN). */
export const MY_LISTINGS_SEARCH_MAX = 100;

const MyListingsSearchSchema = textSchema('Search', {
  max: MY_LISTINGS_SEARCH_MAX,
  min: 0,
}).optional();

/**
 * `status=sold&status=withdrawn`, `status=sold,withdrawn`, or both: any of them. Repeated, as the
 * search's filters are; commas too, since a tab's link is easier to write with them.
 */
const StatusesSchema = z
  .preprocess(
    (value) =>
      value === undefined
        ? value
        : (Array.isArray(value) ? value : [value]).flatMap((each) =>
            typeof each === 'string' ? each.split(',').map((part) => part.trim()) : [each],
          ),
    z
      .array(
        z.enum(MY_LISTING_STATUSES, {
          message: `Status must be one of ${MY_LISTING_STATUSES.join(', ')}`,
        }),
      )
      .max(MY_LISTING_STATUSES.length * 2, 'Too many values'),
  )
  .optional();

/** `GET /api/my/listings`: a page (or all) of the seller's cars in some states, searched, sorted. */
export const MyListingsQuerySchema = PageQuerySchema.extend({
  status: StatusesSchema,
  q: MyListingsSearchSchema,
  sort: z
    .enum(MY_LISTING_SORTS, { message: `Sort must be one of ${MY_LISTING_SORTS.join(', ')}` })
    .optional(),
});
export type MyListingsQuery = z.infer<typeof MyListingsQuerySchema>;

/** `GET /api/my/listings/counts`: the tabs' counts, for the search given. */
export const MyListingCountsQuerySchema = z.object({ q: MyListingsSearchSchema });

export const MyListingCountsSchema = z.object({
  all: z.number().int(),
  available: z.number().int(),
  reserved: z.number().int(),
  sold: z.number().int(),
  withdrawn: z.number().int(),
});
export type MyListingCounts = z.infer<typeof MyListingCountsSchema>;

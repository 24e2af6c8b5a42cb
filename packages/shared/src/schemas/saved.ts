import { z } from 'zod';
import { textSchema, tokenSchema } from '../text.ts';
import { IdSchema } from './common.ts';
import { ListingCardSchema } from './listing.ts';
import { SearchQuerySchema, searchParamsOf } from './search.ts';

/** At most this many saved cars and saved searches per person (issue 15). */
export const MAX_SAVED_CARS = 500;
export const MAX_SAVED_SEARCHES = 50;

export const ALERT_CHOICES = ['off', 'daily', 'instant'] as const;
export type AlertChoice = (typeof ALERT_CHOICES)[number];

export const ListingIdParamsSchema = z.object({ listingId: IdSchema });

/** `GET /api/saved-cars`: a saved car as it is now, with its price when it was saved. */
export const SavedCarSchema = z.object({
  listingId: z.uuid(),
  savedAt: z.string(),
  /** Price when saved, minor units. */
  priceAtSaving: z.number().int(),
  /**
   * When its seller put it back on sale after it was withdrawn, if that was after it was saved and
   * in the last 14 days and it is on sale now; else null.
   */
  backOnSaleAt: z.string().nullable(),
  /** The car now: its card (price, status: available, reserved, sold or withdrawn). */
  car: ListingCardSchema,
});
export type SavedCar = z.infer<typeof SavedCarSchema>;
export const SavedCarListSchema = z.array(SavedCarSchema);

/** `PUT /api/saved-cars/:listingId` answer. */
export const SavedCarStateSchema = z.object({
  listingId: z.uuid(),
  saved: z.boolean(),
});

const alertsSchema = z.enum(ALERT_CHOICES, { message: 'Alerts must be off, daily or instant' });
const nameSchema = textSchema('Name', { max: 120 });

/**
 * A search's query string as the search call takes it (`make=Toyota&priceMax=1500000`); paging
 * and facet parameters are dropped, everything else must be valid for `GET /api/listings`.
 */
export const SavedQuerySchema = z
  .string()
  .max(2000, 'The search is too long to save')
  .superRefine((value, ctx) => {
    const parsed = SearchQuerySchema.safeParse(searchParamsOf(value));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      ctx.addIssue({
        code: 'custom',
        message: `${issue.path.join('.') || 'query'}: ${issue.message}`,
      });
    } else if (parsed.data.seller !== undefined) {
      // Alerts match new cars by the saved search's columns, which hold no seller.
      ctx.addIssue({ code: 'custom', message: "seller: A seller's cars cannot be a saved search" });
    }
  });

export const CreateSavedSearchSchema = z.object({
  name: nameSchema,
  query: SavedQuerySchema,
  alerts: alertsSchema.default('off'),
});
export type CreateSavedSearchInput = z.infer<typeof CreateSavedSearchSchema>;

export const UpdateSavedSearchSchema = z
  .object({
    name: nameSchema.optional(),
    alerts: alertsSchema.optional(),
    /** Marks the search as seen now: `newSinceVisit` starts again from zero. */
    visited: z.literal(true).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to change' });
export type UpdateSavedSearchInput = z.infer<typeof UpdateSavedSearchSchema>;

export const SavedSearchSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  /** The search call's query string. */
  query: z.string(),
  alerts: alertsSchema,
  createdAt: z.string(),
  lastVisitedAt: z.string().nullable(),
  /** Cars on sale matching it now; null if the saved query is one today's search refuses. */
  matching: z.number().int().nullable(),
  matchingIsEstimate: z.boolean(),
  /** Cars listed since the last visit that match and are still on sale. */
  newSinceVisit: z.number().int(),
});
export type SavedSearch = z.infer<typeof SavedSearchSchema>;
export const SavedSearchListSchema = z.array(SavedSearchSchema);

export const UnsubscribeQuerySchema = z.object({ token: tokenSchema({ min: 10, max: 400 }) });
export const UnsubscribeResultSchema = z.object({
  unsubscribed: z.literal(true),
  /** What was turned off, for the page to say, e.g. `alerts for your saved search "Audi"`. */
  what: z.string(),
});
export type UnsubscribeResult = z.infer<typeof UnsubscribeResultSchema>;
